// The region's width (dependency-file.test): in the rewrite as a constant.
#pragma once
constexpr int kN = 128;
