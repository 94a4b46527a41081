#!/bin/sh
# fuzz/prefix-syms.sh: copies a static library with every global symbol it
# defines renamed to PREFIX<name> (references inside the library follow), so
# several impls' libraries, which define the same names, link into one
# program.  Symbols it only uses (libc, the shared common library) keep
# their names.  Meson writes thin archives, which objcopy cannot copy, so
# each member object is renamed on its own and a normal archive is written.
#
# usage: prefix-syms.sh NM OBJCOPY PREFIX IN.a OUT.a
set -eu
nm=$1 objcopy=$2 prefix=$3 in=$4 out=$5
map=$out.syms
dir=$out.d
# Defined, global or weak (upper-case nm types).
"$nm" --defined-only --extern-only --format=posix "$in" 2>/dev/null \
    | awk -v p="$prefix" 'NF >= 2 && $1 !~ /:$/ && $2 ~ /^[A-Z]$/ {
          print $1, p $1 }' \
    | sort -u >"$map"
if [ ! -s "$map" ]; then
    echo "prefix-syms.sh: $in defines no global symbol" >&2
    exit 1
fi
rm -rf "$dir" "$out"
mkdir "$dir"
in_dir=$(dirname "$in")
i=0
for member in $(ar t "$in"); do
    # GNU ar prints a thin archive's members as paths from here.
    obj=$member
    [ -f "$obj" ] || obj=$in_dir/$member
    i=$((i + 1))
    "$objcopy" --redefine-syms="$map" "$obj" "$dir/$i-$(basename "$member")"
done
ar rcs "$out" "$dir"/*.o
rm -rf "$dir"
