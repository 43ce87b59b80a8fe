#!/usr/bin/env bash
# Installs everything tc-rewrite needs to build and test, and nothing twice.
#
#   scripts/install-deps.sh [--fuzz]
#
# - Debian packages (bookworm + bookworm-security): Clang/LLVM 22, isl,
#   clang-tidy, GoogleTest, CMake, pkg-config, python3. apt is only run when
#   `dpkg-query` says one of them is missing; uses sudo when not root.
# - CUDA: nvcc is expected at /usr/local/cuda (or $CUDA_PATH, or on PATH). It
#   is not installed here; without it the compile tests (lit feature `nvcc`)
#   are reported UNSUPPORTED.
# - cuobjdump + nvdisasm (CUDA 13 wheels from PyPI) for the SASS checks of the
#   compile tests, when the CUDA installation lacks them. Installed into
#   $TC_CUDA_TOOLS_DIR (default /opt/tc-rewrite/cuda-tools as root, else
#   ~/.local/share/tc-rewrite/cuda-tools). If that fails the SASS checks are
#   skipped (lit feature `cuobjdump`), nothing else.
# - With --fuzz (scripts/fuzz.sh, scripts/test.sh --sanitize): also Clang's
#   runtime libraries (libFuzzer, ASan, UBSan) for the opt-in build-fuzz/.
#
# Exits 0 on an already-set-up machine without touching apt or pip.
set -euo pipefail

fuzz=0
for arg in "$@"; do
  case "${arg}" in
    --fuzz) fuzz=1 ;;
    *) printf '[install-deps] ERROR: unknown argument %s\n' "${arg}" >&2; exit 2 ;;
  esac
done

# zlib1g-dev and libzstd-dev: LLVMSupport's exported CMake link interface
# names ZLIB::ZLIB and zstd::libzstd_shared, and llvm-22-dev does not pull in
# libzstd-dev. (Not libedit-dev: with it, LLVM's FindLibEdit runs a C
# try_compile, which fails in this C++-only project.)
APT_PACKAGES=(
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools clang-tidy-22 clang-tools-22
  zlib1g-dev libzstd-dev
  libisl-dev googletest libgtest-dev cmake pkg-config python3
)
if ((fuzz)); then
  APT_PACKAGES+=(libclang-rt-22-dev)
fi
# Version of the cuobjdump/nvdisasm wheels (the oldest CUDA 13 one on PyPI;
# it disassembles the sm_80 / sm_90a cubins of nvcc 13.0).
CUDA_TOOLS_WHEEL_VERSION=13.2.86

log() { printf '[install-deps] %s\n' "$*"; }
warn() { printf '[install-deps] WARNING: %s\n' "$*" >&2; }
die() { printf '[install-deps] ERROR: %s\n' "$*" >&2; exit 1; }

is_installed() {
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

as_root() {
  if [[ ${EUID} -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "not root and sudo is missing; cannot run: $*"
  fi
}

# --- Debian packages --------------------------------------------------------
command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script expects Debian 12 (bookworm)"
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  is_installed "${pkg}" || missing+=("${pkg}")
done
if ((${#missing[@]} > 0)); then
  log "installing missing packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
else
  log "all Debian packages present"
fi

# --- CUDA: nvcc ---------------------------------------------------------------
cuda_root="${CUDA_PATH:-/usr/local/cuda}"
nvcc=""
if [[ -x "${cuda_root}/bin/nvcc" ]]; then
  nvcc="${cuda_root}/bin/nvcc"
elif command -v nvcc >/dev/null 2>&1; then
  nvcc="$(command -v nvcc)"
fi
if [[ -n "${nvcc}" ]]; then
  log "nvcc: ${nvcc} ($("${nvcc}" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))"
else
  warn "nvcc not found (looked in ${cuda_root}/bin and PATH): the compile tests (test/compile) will be skipped"
fi

# --- CUDA: cuobjdump + nvdisasm for the SASS checks ----------------------------
if [[ -z "${TC_CUDA_TOOLS_DIR:-}" ]]; then
  if [[ ${EUID} -eq 0 ]]; then
    TC_CUDA_TOOLS_DIR=/opt/tc-rewrite/cuda-tools
  else
    TC_CUDA_TOOLS_DIR="${XDG_DATA_HOME:-${HOME}/.local/share}/tc-rewrite/cuda-tools"
  fi
fi
wheel_bin="${TC_CUDA_TOOLS_DIR}/nvidia/cu13/bin"

have_sass_tools() {
  local dir
  for dir in "${cuda_root}/bin" "${wheel_bin}" ${nvcc:+"$(dirname "${nvcc}")"}; do
    [[ -x "${dir}/cuobjdump" && -x "${dir}/nvdisasm" ]] && { echo "${dir}"; return 0; }
  done
  if command -v cuobjdump >/dev/null 2>&1 && command -v nvdisasm >/dev/null 2>&1; then
    dirname "$(command -v cuobjdump)"
    return 0
  fi
  return 1
}

if [[ -z "${nvcc}" ]]; then
  : # nothing to disassemble without nvcc
elif dir="$(have_sass_tools)"; then
  log "cuobjdump/nvdisasm: ${dir}"
else
  log "installing cuobjdump + nvdisasm ${CUDA_TOOLS_WHEEL_VERSION} (PyPI) into ${TC_CUDA_TOOLS_DIR}"
  ok=0
  for py in python3 /usr/bin/python3; do
    command -v "${py}" >/dev/null 2>&1 || continue
    "${py}" -m pip --version >/dev/null 2>&1 || continue
    if mkdir -p "${TC_CUDA_TOOLS_DIR}" 2>/dev/null || as_root mkdir -p "${TC_CUDA_TOOLS_DIR}"; then
      pip_cmd=("${py}" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps
               --upgrade --target "${TC_CUDA_TOOLS_DIR}"
               "nvidia-cuda-cuobjdump==${CUDA_TOOLS_WHEEL_VERSION}"
               "nvidia-cuda-nvdisasm==${CUDA_TOOLS_WHEEL_VERSION}")
      if [[ -w "${TC_CUDA_TOOLS_DIR}" ]]; then "${pip_cmd[@]}" && ok=1; else as_root "${pip_cmd[@]}" && ok=1; fi
    fi
    ((ok)) && break
  done
  if ((ok)) && [[ -x "${wheel_bin}/cuobjdump" && -x "${wheel_bin}/nvdisasm" ]]; then
    log "cuobjdump/nvdisasm: ${wheel_bin}"
  else
    warn "could not install cuobjdump/nvdisasm: the SASS checks of the compile tests will be skipped"
  fi
fi

exit 0
