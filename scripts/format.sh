#!/usr/bin/env bash
# scripts/format.sh [--check] - the committed .clang-format over every C
# file git tracks. --check changes nothing: it prints "PASS format", or
# "FAIL format" with each file that differs (as the tests count them).
set -u
cd "$(dirname "$0")/.."
files=$(git ls-files '*.c' '*.h')
if [ "${1:-}" != --check ]; then
	exec clang-format -i $files
fi
bad=()
for f in $files; do
	clang-format "$f" | cmp -s - "$f" || bad+=("$f")
done
if [ ${#bad[@]} -eq 0 ]; then
	echo "PASS format ($(echo "$files" | wc -l) files, $(clang-format --version))"
else
	echo "FAIL format: ${#bad[@]} files differ from .clang-format: ${bad[*]}"
	echo "  run: bash scripts/format.sh   (then check the diff)"
fi
