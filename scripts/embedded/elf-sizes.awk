# elf-sizes.awk — the bytes of an object or linked file by kind of section, from
# `readelf -S -W FILE`. Used by section-sizes.sh and firmware-budget.sh, so the
# two count sections the same way.
#
# Prints one line: "text rodata data bss other", the total bytes of the
# allocated sections that are
#   text    executable                               (.text.*)
#   rodata  read-only, named .rodata* or .srodata*    (tables, strings)
#   data    writable, with contents                   (.data*, .sdata*, ...)
#   bss     writable, no contents                     (.bss*, .sbss*, ...)
#   other   any other read-only section               (.ARM.exidx unwind index, ...)
# Sections that are not allocated (symbols, debug information) are not counted.

# A hexadecimal size as readelf prints it (awk has no portable hex conversion).
function hex(digits,    i, n) {
    n = 0
    for (i = 1; i <= length(digits); i++) {
        n = n * 16 + index("0123456789abcdef", tolower(substr(digits, i, 1))) - 1
    }
    return n
}

/^ *\[ *[0-9]+\]/ {
    line = $0
    sub(/^ *\[ *[0-9]+\] */, "", line)
    n = split(line, f, /[ \t]+/)
    if (n == 10) { flags = f[7] } else { flags = "" }
    name = f[1]; type = f[2]; bytes = hex(f[5])
    if (flags !~ /A/) next
    if (flags ~ /X/) text += bytes
    else if (flags ~ /W/ && type == "NOBITS") bss += bytes
    else if (flags ~ /W/) data += bytes
    else if (name ~ /^\.s?rodata/) rodata += bytes
    else other += bytes
}

END { printf "%d %d %d %d %d\n", text, rodata, data, bss, other }
