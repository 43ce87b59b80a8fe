//===- TuningDatabase.cpp -------------------------------------------------===//
#include "TuningDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include <tuple>

namespace tc {

llvm::Expected<TuningDatabase> TuningDatabase::load(llvm::ArrayRef<std::string> Paths) {
  TuningDatabase DB;
  for (const std::string &Path : Paths) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "cannot read the tuning database '%s': %s",
                                     Path.c_str(), Buffer.getError().message().c_str());
    if (auto E = DB.parse((*Buffer)->getBuffer(), Path))
      return std::move(E);
  }
  return DB;
}

static constexpr int kMaxNesting = 64;

/// What one pass over a database's JSON text, outside its strings, finds:
/// the deepest nesting of arrays and objects (llvm::json::parse recurses
/// once a level: a file nested thousands of levels deep would overflow the
/// stack), and the first key that an object holds twice (llvm::json keeps
/// the last of them, where a file merged or edited by hand more likely
/// meant one of two measurements; keys compare as written).
struct JsonShape {
  int Depth = 0;
  std::optional<std::string> DuplicateKey;
};

static JsonShape jsonShape(llvm::StringRef Text) {
  JsonShape Shape;
  // Per open array or object: whether an object, and its keys so far.
  std::vector<std::pair<bool, std::set<std::string>>> Open;
  std::string Str;
  bool InString = false, Escaped = false, LastWasString = false;
  for (char C : Text) {
    if (InString) {
      if (Escaped)
        Escaped = false;
      else if (C == '\\')
        Escaped = true;
      else if (C == '"') {
        InString = false;
        LastWasString = true;
        continue;
      }
      Str += C;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r')
      continue;
    if (C == ':' && LastWasString && !Open.empty() && Open.back().first &&
        !Shape.DuplicateKey) {
      if (!Open.back().second.insert(Str).second)
        Shape.DuplicateKey = Str;
    }
    LastWasString = false;
    if (C == '"') {
      InString = true;
      Str.clear();
    } else if (C == '{' || C == '[') {
      Open.push_back({C == '{', {}});
      Shape.Depth = std::max(Shape.Depth, static_cast<int>(Open.size()));
    } else if ((C == '}' || C == ']') && !Open.empty()) {
      Open.pop_back();
    }
  }
  return Shape;
}

llvm::Error TuningDatabase::parse(llvm::StringRef Text, llvm::StringRef Origin) {
  auto Fail = [&](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "tuning database '" + Origin + "': " + Why);
  };
  // (Version 1 nests three levels.)
  const JsonShape Shape = jsonShape(Text);
  if (Shape.Depth > kMaxNesting)
    return Fail("nested " + llvm::Twine(Shape.Depth) + " levels deep (a tuning database nests " +
                "three)");
  auto Value = llvm::json::parse(Text);
  if (!Value)
    return Fail(llvm::toString(Value.takeError()));
  if (Shape.DuplicateKey)
    return Fail("an object holds the key \"" + *Shape.DuplicateKey + "\" twice");
  const llvm::json::Object *Root = Value->getAsObject();
  if (!Root)
    return Fail("not a JSON object");
  std::optional<int64_t> Version = Root->getInteger("tc_tuning_database");
  if (!Version)
    return Fail("no \"tc_tuning_database\" version");
  if (*Version != 1)
    return Fail("version " + llvm::Twine(*Version) + "; this tc-rewrite reads version 1");
  const llvm::json::Array *Entries = Root->getArray("entries");
  if (!Entries)
    return Fail("no \"entries\" array");
  for (size_t I = 0; I < Entries->size(); ++I) {
    auto Bad = [&](const llvm::Twine &Why) {
      return Fail("entry " + llvm::Twine(I) + ": " + Why);
    };
    const llvm::json::Object *E = (*Entries)[I].getAsObject();
    if (!E)
      return Bad("not an object");
    TuningMeasurement T;
    auto Gpu = E->getString("gpu"), Region = E->getString("region");
    if (!Gpu || !Region)
      return Bad("\"gpu\" and \"region\" must be strings");
    T.Gpu = Gpu->str();
    T.Region = Region->str();
    const llvm::json::Array *Shape = E->getArray("shape");
    if (!Shape || Shape->size() != 3)
      return Bad("\"shape\" must be [m, n, k]");
    int64_t *Dims[] = {&T.M, &T.N, &T.K};
    for (int D = 0; D < 3; ++D) {
      std::optional<int64_t> V = (*Shape)[D].getAsInteger();
      if (!V || *V < 1)
        return Bad("\"shape\" must hold positive integers");
      *Dims[D] = *V;
    }
    const llvm::json::Array *Kernels = E->getArray("kernels"), *Ms = E->getArray("ms");
    if (!Kernels || !Ms || Kernels->size() != Ms->size() || Kernels->empty())
      return Bad("\"kernels\" and \"ms\" must be arrays of one length");
    for (size_t J = 0; J < Kernels->size(); ++J) {
      auto Name = (*Kernels)[J].getAsString();
      auto Time = (*Ms)[J].getAsNumber();
      if (!Name || !Time)
        return Bad("\"kernels\" holds names and \"ms\" numbers");
      if (!std::isfinite(*Time))
        return Bad("a time of \"ms\" is not finite");
      if (llvm::is_contained(T.Kernels, Name->str()))
        return Bad("\"kernels\" names '" + Name->str() + "' twice");
      T.Kernels.push_back(Name->str());
      T.Ms.push_back(*Time);
    }
    Measurements.push_back(std::move(T));
  }
  return llvm::Error::success();
}

int shapeBucket(int64_t X) {
  if (X < 1)
    return -1;
  int Log2 = 63 - __builtin_clzll(static_cast<unsigned long long>(X));
  bool Upper = Log2 > 0 && ((X >> (Log2 - 1)) & 1);
  return 2 * Log2 + (Upper ? 1 : 0);
}

namespace {
const char *typeName(ElementType T) {
  switch (T) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  case ElementType::I8:
    return "s8";
  case ElementType::U8:
    return "u8";
  case ElementType::U4:
    return "u4";
  case ElementType::I4:
    return "s4";
  case ElementType::Other:
    break;
  }
  return "other";
}
} // namespace

std::string tuningKey(const RegionModel &M, const MatmulIdiom &Idiom, const KernelConfig &C,
                      const std::vector<AlternativeKernel> &Alts) {
  // An operand by its element type and order, as the m x k matrix A and
  // the k x n matrix B: `row` where a row's elements are contiguous.
  auto Operand = [&](const OperandView &V, bool IsA) {
    return std::string(typeName(M.Arrays[V.ArrayId].Elem)) + "." +
           (V.ReductionIsContiguous == IsA ? "row" : "col");
  };
  // The output: the array the last statement writes.
  const Array &Out = M.Arrays[M.Stmts.back().Write.ArrayId];
  std::string Key = std::string(archName(C.Arch)) + " " + Operand(Idiom.A, true) + " " +
                    Operand(Idiom.B, false) + " -> " + typeName(Out.Elem);
  if (!Idiom.A.Prologue.empty() || !Idiom.B.Prologue.empty())
    Key += " prologue";
  if (!Idiom.MoreProducts.empty())
    Key += " sum" + std::to_string(Idiom.MoreProducts.size() + 1);
  if (!Idiom.IterBatch.empty())
    Key += " batched";
  // The kernels themselves (clauses such as split_k or tile change them;
  // so does another version of the tool): a hash of their descriptions.
  uint64_t Hash = 1469598103934665603ull; // FNV-1a
  auto Add = [&](const std::string &Text) {
    for (unsigned char Ch : Text + "\n")
      Hash = (Hash ^ Ch) * 1099511628211ull;
  };
  Add(C.describe());
  for (const AlternativeKernel &A : Alts)
    Add(A.Suffix + " " + A.Config.describe());
  char Hex[24];
  snprintf(Hex, sizeof Hex, " #%08x", static_cast<unsigned>(Hash ^ (Hash >> 32)));
  return Key + Hex;
}

std::vector<std::string> tuningKernelNames(const std::vector<AlternativeKernel> &Alts) {
  std::vector<std::string> Names = {"default"};
  for (const AlternativeKernel &A : Alts)
    Names.push_back(llvm::StringRef(A.Suffix).ltrim('_').str());
  return Names;
}

std::vector<TunedEntry> tunedEntries(const TuningDatabase &DB, llvm::StringRef Key,
                                     llvm::ArrayRef<std::string> Kernels) {
  // The measurements of each GPU and bucket, in the database's order.
  using Bucket = std::tuple<std::string, int, int, int>;
  std::map<Bucket, std::vector<const TuningMeasurement *>> Buckets;
  for (const TuningMeasurement &T : DB.Measurements)
    if (T.Region == Key)
      Buckets[{T.Gpu, shapeBucket(T.M), shapeBucket(T.N), shapeBucket(T.K)}].push_back(&T);
  std::vector<TunedEntry> Entries;
  for (const auto &[B, Measured] : Buckets) {
    std::optional<TunedEntry> Best;
    for (size_t I = 0; I < Kernels.size(); ++I) {
      double LogSum = 0;
      bool Everywhere = true;
      for (const TuningMeasurement *T : Measured) {
        auto It = llvm::find(T->Kernels, Kernels[I]);
        double Ms = It == T->Kernels.end() ? -1 : T->Ms[It - T->Kernels.begin()];
        if (!(Ms > 0)) {
          Everywhere = false;
          break;
        }
        LogSum += std::log(Ms);
      }
      if (!Everywhere)
        continue;
      double Geomean = std::exp(LogSum / Measured.size());
      if (!Best || Geomean < Best->Ms)
        Best = TunedEntry{std::get<0>(B), std::get<1>(B), std::get<2>(B), std::get<3>(B),
                          static_cast<int>(I) - 1, Kernels[I], unsigned(Measured.size()),
                          Geomean};
    }
    if (Best)
      Entries.push_back(*Best);
  }
  return Entries;
}

std::string explainTuning(const RegionTuning &T) {
  std::string S = "  tuning: measurements filed under '" + T.Key + "', of the kernels " +
                  llvm::join(T.Kernels, ", ") + "\n";
  for (const TunedEntry &E : T.Entries) {
    char Ms[32];
    snprintf(Ms, sizeof Ms, "%.4g", E.Ms);
    S += "    measured on " + E.Gpu + ", shape buckets (" + std::to_string(E.BucketM) + ", " +
         std::to_string(E.BucketN) + ", " + std::to_string(E.BucketK) + "): " + E.KernelName +
         ", " + Ms + " ms (geometric mean over " + std::to_string(E.Shapes) + " shape" +
         (E.Shapes == 1 ? "" : "s") + ")\n";
  }
  return S;
}

} // namespace tc
