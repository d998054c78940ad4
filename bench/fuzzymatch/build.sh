#!/usr/bin/env bash
# Builds SYSTRAN's FuzzyMatch (library + CLI), the OpenNMT Tokenizer it links, and the timing harness
# (harness.cc beside this script), from local bare git mirrors, into $FM_ROOT (default /work/fm).
# Nothing is written inside the repository.
#
#   bash bench/fuzzymatch/build.sh
#
# Needs: cmake, g++, libicu-dev, libboost-{serialization,iostreams,system,program-options}-dev, and
# libsentencepiece-dev when the sentencepiece mirror lacks some of its files (see below).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FM_ROOT=${FM_ROOT:-/work/fm}
FUZZYMATCH_MIRROR=${FUZZYMATCH_MIRROR:-/work/.mirror/SYSTRAN+fuzzy-match/repo}
TOKENIZER_MIRROR=${TOKENIZER_MIRROR:-/work/.mirror/OpenNMT+Tokenizer/repo}
SENTENCEPIECE_MIRROR=${SENTENCEPIECE_MIRROR:-/work/.mirror/google+sentencepiece/repo}
CXXOPTS_MIRROR=${CXXOPTS_MIRROR:-/work/.mirror/jarro2783+cxxopts/repo}
# The Tokenizer tag FuzzyMatch's CI builds against (.github/workflows/cmake.yml).
TOKENIZER_REF=${TOKENIZER_REF:-v1.20.0}
FUZZYMATCH_REF=${FUZZYMATCH_REF:-HEAD}
JOBS=${JOBS:-2}

SRC=$FM_ROOT/src
PREFIX=$FM_ROOT/prefix
BUILD=$FM_ROOT/build
mkdir -p "$SRC" "$PREFIX" "$BUILD"

# Extracts <ref> of a bare mirror into <dest>, leaving out the blobs the mirror does not hold (these
# mirrors leave out some large files); prints the paths left out, one a line, on stdout.
extract() {
  local mirror=$1 ref=$2 dest=$3
  rm -rf "$dest"
  mkdir -p "$dest"
  local -a present=()
  local mode type object path
  while IFS=$'\t' read -r meta path; do
    read -r mode type object <<<"$meta"
    [[ $type == blob ]] || continue # submodules (commits) are not in the archive either
    if git -C "$mirror" cat-file -e "$object" 2>/dev/null; then
      present+=("$path")
    else
      echo "$path"
    fi
  done < <(git -C "$mirror" ls-tree -r "$ref")
  # In batches, so that the command line stays short.
  local i
  for ((i = 0; i < ${#present[@]}; i += 500)); do
    # git archive still complains of absent blobs it was not asked for (and exits 0): not shown.
    git -C "$mirror" archive "$ref" -- "${present[@]:i:500}" 2> >(grep -v '^error: invalid object' >&2) |
      tar -x -C "$dest"
  done
}

echo "== sources into $SRC" >&2
missing=$(extract "$FUZZYMATCH_MIRROR" "$FUZZYMATCH_REF" "$SRC/fuzzy-match")
[[ -z $missing ]] || echo "fuzzy-match: not in the mirror, left out: $missing" >&2
git -C "$TOKENIZER_MIRROR" rev-parse -q --verify "$TOKENIZER_REF^{commit}" >/dev/null || {
  echo "Tokenizer: no $TOKENIZER_REF in the mirror, using HEAD" >&2
  TOKENIZER_REF=HEAD
}
missing=$(extract "$TOKENIZER_MIRROR" "$TOKENIZER_REF" "$SRC/Tokenizer")
[[ -z $missing ]] || echo "Tokenizer: not in the mirror, left out: $missing" >&2

# The Tokenizer's submodules, at the commits its tag records.
submodule_commit() { git -C "$TOKENIZER_MIRROR" ls-tree "$TOKENIZER_REF" "third_party/$1" | awk '{print $3}'; }
cxxopts_commit=$(submodule_commit cxxopts)
git -C "$CXXOPTS_MIRROR" cat-file -e "$cxxopts_commit^{commit}" 2>/dev/null || cxxopts_commit=HEAD
extract "$CXXOPTS_MIRROR" "$cxxopts_commit" "$SRC/Tokenizer/third_party/cxxopts" >/dev/null

spm_commit=$(submodule_commit sentencepiece)
git -C "$SENTENCEPIECE_MIRROR" cat-file -e "$spm_commit^{commit}" 2>/dev/null || spm_commit=HEAD
spm_missing=$(extract "$SENTENCEPIECE_MIRROR" "$spm_commit" "$SRC/Tokenizer/third_party/sentencepiece")
if [[ -n $spm_missing ]]; then
  # The mirror lacks generated files sentencepiece needs to compile (src/normalization_rule.h, data/*.tsv)
  # at that commit and at every other. FuzzyMatch does not use SentencePiece, but the Tokenizer links it:
  # link Debian's libsentencepiece (0.1.97, same public API, needs C++17) instead of the submodule.
  echo "sentencepiece $spm_commit: not in the mirror: $(echo $spm_missing);" \
    "building the Tokenizer against the system libsentencepiece-dev instead" >&2
  [[ -f /usr/include/sentencepiece_processor.h ]] || {
    echo "install libsentencepiece-dev (apt-get install -y libsentencepiece-dev)" >&2
    exit 1
  }
  rm -rf "$SRC/Tokenizer/third_party/sentencepiece"
  mkdir -p "$SRC/Tokenizer/third_party/sentencepiece"
  cml=$SRC/Tokenizer/CMakeLists.txt
  sed -i \
    -e 's/^set(CMAKE_CXX_STANDARD 11)/set(CMAKE_CXX_STANDARD 17)/' \
    -e '/^add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}\/third_party\/sentencepiece EXCLUDE_FROM_ALL)/d' \
    -e '/^set_target_properties($/,/^  )$/d' \
    -e 's/^  sentencepiece-static$/  sentencepiece/' \
    -e 's/^  sentencepiece_train-static$/  sentencepiece_train/' \
    "$cml"
  # 0.1.97 takes the vocabulary as string_views (as later Tokenizer releases pass it).
  sed -i 's/_processor->SetVocabulary(vocabulary)/_processor->SetVocabulary(std::vector<absl::string_view>(vocabulary.begin(), vocabulary.end()))/' \
    "$SRC/Tokenizer/src/SentencePiece.cc"
  ! grep -q 'sentencepiece-static\|third_party/sentencepiece EXCLUDE' "$cml" || {
    echo "could not patch $cml" >&2
    exit 1
  }
fi

echo "== OpenNMT Tokenizer ($TOKENIZER_REF) into $PREFIX" >&2
cmake -S "$SRC/Tokenizer" -B "$BUILD/Tokenizer" -DLIB_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib >&2
cmake --build "$BUILD/Tokenizer" -j "$JOBS" >&2
cmake --install "$BUILD/Tokenizer" >&2

echo "== FuzzyMatch library and CLI into $PREFIX" >&2
# FuzzyMatch's CMake installs nothing: its library and CLI stay in the build tree.
cmake -S "$SRC/fuzzy-match" -B "$BUILD/fuzzy-match" -DCLI_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
  -DOPENNMT_TOKENIZER_ROOT="$PREFIX" -DCMAKE_BUILD_RPATH="$PREFIX/lib" >&2
cmake --build "$BUILD/fuzzy-match" -j "$JOBS" >&2
mkdir -p "$PREFIX/bin" "$PREFIX/lib"
cp "$BUILD/fuzzy-match/cli/src/FuzzyMatch-cli" "$PREFIX/bin/"
cp "$BUILD/fuzzy-match/src/libFuzzyMatch.so" "$PREFIX/lib/"

echo "== harness" >&2
# The same flags as FuzzyMatch's Release build (CMake's Release: -O3 -DNDEBUG), C++17 as its CMake sets.
g++ -std=c++17 -O3 -DNDEBUG -Wall -Wextra \
  -I"$SRC/fuzzy-match/include" -I"$PREFIX/include" \
  "$HERE/harness.cc" -o "$PREFIX/bin/fm-harness" \
  -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -lFuzzyMatch -lOpenNMTTokenizer \
  -lboost_serialization -lboost_iostreams -lboost_system -licuuc -licui18n -licudata -pthread
echo "built: $PREFIX/bin/FuzzyMatch-cli $PREFIX/bin/fm-harness" >&2
