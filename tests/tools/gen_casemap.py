#!/usr/bin/env python3
"""Write src/jinja/casemap.c: the case facts of Python's str, for the
template renderer's upper, lower, title, capitalize and swapcase.

Run by hand when the Unicode version is to change (it needs Python 3; the
build does not):

    python3 tests/tools/gen_casemap.py > src/jinja/casemap.c

The facts are asked of Python itself, code point by code point, so that
they are the ones jinja2 renders with: the full mappings of str.lower(),
str.upper() and str.title() (SpecialCasing: "ß".upper() is "SS", "İ".lower()
two code points), and the properties CPython's case functions read: Cased
and Case_Ignorable (for the final sigma rule and str.title), Lowercase,
Uppercase and titlecase (for str.islower, str.isupper and swapcase). Cased
and Case_Ignorable are not exposed by Python: they are read off the final
sigma rule, which CPython applies as

    sigma is final  iff  cased ignorable* SIGMA !(ignorable* cased)

so a code point x is case-ignorable when "A" x SIGMA lowers to a final
sigma but " " x SIGMA does not, and cased when it is not case-ignorable and
x SIGMA lowers to a final sigma (or, ignorable, when it is lower, upper or
title case: Cased is exactly those).

The Unicode version is the one of the Python running the script; the
renderer's corpus is made with Python 3.11, whose unicodedata is Unicode
14.0.0, and the script refuses another unless given --any-version.
"""

import sys
import unicodedata

WANT = "14.0.0"
SIGMA, FINAL = "\u03a3", "\u03c2"

F_CASED, F_IGNORABLE, F_LOWER, F_UPPER, F_TITLE = 1, 2, 4, 8, 16


def flags(c):
    x = chr(c)
    f = 0
    if 0xD800 <= c < 0xE000:
        return 0
    lower, upper = x.islower(), x.isupper()
    title = x.istitle() and not upper
    ign = ("A" + x + SIGMA).lower()[-1] == FINAL and \
        (" " + x + SIGMA).lower()[-1] != FINAL
    if ign:
        cased = lower or upper or title
    else:
        cased = (x + SIGMA).lower()[-1] == FINAL
        assert cased == (lower or upper or title), hex(c)
    if cased:
        f |= F_CASED
    if ign:
        f |= F_IGNORABLE
    if lower:
        f |= F_LOWER
    if upper:
        f |= F_UPPER
    if title:
        f |= F_TITLE
    return f


def main():
    if unicodedata.unidata_version != WANT and "--any-version" not in sys.argv:
        sys.exit("gen_casemap: Python's Unicode is %s, not %s "
                 "(--any-version to go on)" % (unicodedata.unidata_version,
                                               WANT))
    maps = []       # (cp, lower, upper, title), each a str
    multi = []      # the code points of mappings longer than one
    ranges = []     # [lo, hi, flags]
    for c in range(0x110000):
        x = chr(c)
        if 0xD800 <= c < 0xE000:
            m = (x, x, x)
        else:
            m = (x.lower(), x.upper(), x.title())
        if m != (x, x, x):
            maps.append((c,) + m)
        f = flags(c)
        if f:
            if ranges and ranges[-1][1] == c - 1 and ranges[-1][2] == f:
                ranges[-1][1] = c
            else:
                ranges.append([c, c, f])

    def code(s):
        if len(s) == 1:
            return "0x%04x" % ord(s)
        at = len(multi)
        multi.append(len(s))
        multi.extend(ord(ch) for ch in s)
        return "CM_MULTI | %d" % at

    out = sys.stdout
    out.write("""/*
 * casemap.c - the case facts of Python's str (Unicode %s, the version of
 * Python 3.11): full lower, upper and title case mappings and the
 * properties Cased, Case_Ignorable, Lowercase, Uppercase and titlecase.
 *
 * Made by tests/tools/gen_casemap.py, which asks Python for them: do not
 * edit, run it again.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "jint.h"

/* The mappings longer than one code point: each its length, then them. */
const uint32_t casemap_multi[] = {
""" % unicodedata.unidata_version)
    rows = []
    for c, lo, up, ti in maps:
        rows.append("\t{ 0x%04x, %s, %s, %s },\n" %
                    (c, code(lo), code(up), code(ti)))
    for i in range(0, len(multi), 8):
        out.write("\t" + ", ".join("0x%04x" % v for v in multi[i:i + 8]) +
                  ",\n")
    out.write("};\n\n")
    out.write("/* The code points some case of which is not themselves. */\n")
    out.write("const struct casemap casemap[] = {\n")
    out.write("".join(rows))
    out.write("};\n")
    out.write("const size_t casemap_n = sizeof casemap / sizeof casemap[0];"
              "\n\n")
    out.write("/* Runs of code points with the same case properties. */\n")
    out.write("const struct caseprop caseprops[] = {\n")
    for lo, hi, f in ranges:
        out.write("\t{ 0x%04x, 0x%04x, 0x%02x },\n" % (lo, hi, f))
    out.write("};\n")
    out.write("const size_t caseprops_n = sizeof caseprops / "
              "sizeof caseprops[0];\n")


main()
