# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-selftest-kernel.sh - sourced by tests/lanes/lane-selftest (bad_input,
# ok and bad are its): bad kernel input fails before any build or boot
# (lane-build-kernel's patch series, lane-run's kernel), and the kernel
# sources (LANE_SOURCE) with a made-up source "fake": pins, the archive,
# the build cache, patches and their revert; no network, no real build.

mkdir -p "$tmp/empty-series"
bad_input "lane-build-kernel, missing series" patch "$tmp/no-such-series" \
	env LANE_CACHE="$tmp/cache" LANE_PATCHES="$tmp/no-such-series" "$top/scripts/lane-build-kernel"
bad_input "lane-build-kernel, empty series" patch "$tmp/empty-series" \
	env LANE_CACHE="$tmp/cache" LANE_PATCHES="$tmp/empty-series" "$top/scripts/lane-build-kernel"
bad_input "lane-run, missing kernel" kernel "$tmp/no-such-bzImage" \
	env LANE_KERNEL="$tmp/no-such-bzImage" LANE_EXITSCOPE=none LANE_OUT="$tmp/lane" "$top/scripts/lane-run" svm
bad_input "lane-run, not a bzImage" kernel "$top/lanes/init" \
	env LANE_KERNEL="$top/lanes/init" LANE_EXITSCOPE=none LANE_OUT="$tmp/lane" "$top/scripts/lane-run" svm

# --- kernel sources (LANE_SOURCE), all without network or a real build -------
# one_line WHAT RE CMD...: CMD fails and its stderr is one line matching RE
# (grep -E); last_line: the same for the last line of its stderr, after
# progress lines (extracting, apt-get update, make's output).
one_line() {
	local what=$1 re=$2
	shift 2
	if "$@" > "$tmp/out" 2> "$tmp/err"; then
		bad "$what: accepted"
	elif [ "$(wc -l < "$tmp/err")" = 1 ] && grep -qE "$re" "$tmp/err"; then
		ok "$what: $(cat "$tmp/err")"
	else
		bad "$what: want one line matching '$re', got: $(head -c 600 "$tmp/err")"
	fi
}
last_line() {
	local what=$1 re=$2
	shift 2
	if "$@" > "$tmp/out" 2> "$tmp/err"; then
		bad "$what: accepted"
	elif tail -n 1 "$tmp/err" | grep -qE "$re"; then
		ok "$what: $(tail -n 1 "$tmp/err")"
	else
		bad "$what: want a last line matching '$re', got: $(tail -c 600 "$tmp/err")"
	fi
}
one_line "lane-build-kernel, unknown LANE_SOURCE" \
	"^lane-build-kernel: step 'kernel source' failed: unknown LANE_SOURCE '9\.9' \(known: 6\.1 6\.12 7\.2" \
	env LANE_CACHE="$tmp/cache" LANE_SOURCE=9.9 "$top/scripts/lane-build-kernel"
bad_input "lane-run, unknown LANE_SOURCE" kernel "unknown LANE_SOURCE '9.9'" \
	env LANE_SOURCE=9.9 LANE_CACHE="$tmp/cache" LANE_EXITSCOPE=none LANE_OUT="$tmp/lane" "$top/scripts/lane-run" svm
bad_input "lane-run, LANE_SOURCE with a stock kernel" kernel "LANE_SOURCE needs LANE_KERNEL=tiny" \
	env LANE_SOURCE=7.2 LANE_KERNEL=stock LANE_EXITSCOPE=none LANE_OUT="$tmp/lane" "$top/scripts/lane-run" svm
if out=$("$top/scripts/lane-fetch-source" --pin 7.2) && [ "$(echo "$out" | cut -f1-3)" = "$(printf '7.2\tlinux-source-7.2\t')$(awk '$1 == "7.2" { print $3 }' "$top/lanes/kernel-sources")" ]; then
	ok "lane-fetch-source --pin 7.2 reads the pin without fetching: $(echo "$out" | cut -f2,3)"
else
	bad "lane-fetch-source --pin 7.2: $out"
fi

# A made-up kernel source "fake" (LANE_KERNEL_SOURCES): a tree whose Makefile
# and scripts/config act out tinyconfig, olddefconfig and bzImage in a few
# lines, so that the cache logic runs for real in a second.
fk=$tmp/fake-src/linux-source-fake
mkdir -p "$fk/scripts"
cat > "$fk/Makefile" <<'MK'
# A stand-in for a kernel tree (tests/lanes/lane-selftest).
tinyconfig:
	@printf 'CONFIG_64BIT=y\n' > .config
olddefconfig:
	@if [ -n "$$FAKE_DROP" ]; then sed -i "/^CONFIG_$$FAKE_DROP=/d" .config; fi
bzImage:
	@if [ -n "$$FAKE_FAIL" ]; then echo "fake.c:1: error: the build fails" >&2; exit 1; fi
	@mkdir -p arch/x86/boot && cat kvm.c > arch/x86/boot/bzImage
	@printf 'ffffffff81000000 T _stext\n' > System.map
MK
cat > "$fk/scripts/config" <<'CFG'
#!/bin/sh
while [ $# -ge 2 ]; do
	sed -i "/^CONFIG_$2=/d" .config
	[ "$1" = --enable ] && echo "CONFIG_$2=y" >> .config
	shift 2
done
CFG
chmod +x "$fk/scripts/config"
printf 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n' > "$fk/kvm.c"
tar -cJf "$tmp/fake.tar.xz" -C "$tmp/fake-src" linux-source-fake
fsha=$(sha256sum < "$tmp/fake.tar.xz" | cut -d' ' -f1)
fcache=$tmp/fcache
mkdir -p "$fcache/sources/linux-source-fake_1.0-1"
cp "$tmp/fake.tar.xz" "$fcache/sources/linux-source-fake_1.0-1/linux-source-fake.tar.xz"
printf 'fake linux-source-fake 1.0-1 %s -\n' "$fsha" > "$tmp/sources.good"
printf 'fake linux-source-fake 1.0-1 %s -\n' "$(echo x | sha256sum | cut -d' ' -f1)" > "$tmp/sources.badsha"
fake() { env LANE_CACHE="$fcache" LANE_KERNEL_SOURCES="$tmp/sources.good" LANE_SOURCE=fake "$@"; }

one_line "lane-build-kernel, tarball sha256 differs from the pin" \
	"^lane-build-kernel: step 'kernel source' failed: .*linux-source-fake.tar.xz: sha256 $fsha, but lanes/kernel-sources pins .*removed it" \
	env LANE_CACHE="$fcache" LANE_KERNEL_SOURCES="$tmp/sources.badsha" LANE_SOURCE=fake "$top/scripts/lane-build-kernel"
[ ! -e "$fcache/sources/linux-source-fake_1.0-1" ] &&
	ok "the tarball whose sha256 differs is no longer in the cache" || bad "a tarball with a wrong sha256 stayed in the cache"
# A pinned version the archive no longer has: apt's answer faked (PATH).
mkdir -p "$tmp/fake-apt"
cat > "$tmp/fake-apt/apt-get" <<'APT'
#!/bin/sh
[ "$2" = update ] || [ "$1" = update ] && exit 0
echo "E: Version '1.0-1' for 'linux-source-fake' was not found" >&2; exit 100
APT
cat > "$tmp/fake-apt/apt-cache" <<'APT'
#!/bin/sh
printf ' linux-source-fake | 2.0-1 | http://deb.debian.org/debian sid/main amd64 Packages\n'
printf ' linux-source-fake | 1.1-1~bpo13+1 | http://deb.debian.org/debian trixie-backports/main amd64 Packages\n'
APT
chmod +x "$tmp/fake-apt/apt-get" "$tmp/fake-apt/apt-cache"
last_line "lane-fetch-source, pinned version no longer in the archive" \
	"^lane-fetch-source: linux-source-fake 1\.0-1 is no longer in Debian's archive .*available: 2\.0-1 1\.1-1~bpo13\+1 " \
	env PATH="$tmp/fake-apt:$PATH" LANE_CACHE="$fcache" LANE_KERNEL_SOURCES="$tmp/sources.good" "$top/scripts/lane-fetch-source" fake
[ -z "$(ls -A "$fcache/sources" | grep -v '^lock$')" ] && [ ! -e "$fcache/apt/lists" ] &&
	ok "a failed fetch leaves nothing in the cache (no tarball, no apt lists)" ||
	bad "a failed fetch left: $(ls -A "$fcache/sources" "$fcache/apt")"
mkdir -p "$fcache/sources/linux-source-fake_1.0-1"
cp "$tmp/fake.tar.xz" "$fcache/sources/linux-source-fake_1.0-1/linux-source-fake.tar.xz"

# A build that fails is not cached; the next one builds; the one after hits.
printf '64BIT=y\nKVM=y\n' > "$tmp/frag"
last_line "lane-build-kernel, option dropped by olddefconfig" \
	"^lane-build-kernel: step 'kernel config' failed: $tmp/frag: CONFIG_KVM did not stay enabled" \
	fake LANE_CONFIG="$tmp/frag" FAKE_DROP=KVM "$top/scripts/lane-build-kernel"
if fake LANE_CONFIG="$tmp/frag" FAKE_FAIL=1 "$top/scripts/lane-build-kernel" > "$tmp/out" 2> "$tmp/err"; then
	bad "lane-build-kernel: a failing build passed"
elif [ "$(tail -n 1 "$tmp/err" | grep -c "^lane-build-kernel: step 'kernel build' failed: .*make bzImage failed")" = 1 ] &&
	[ -z "$(ls -d "$fcache"/tiny-* 2>/dev/null)" ]; then
	ok "a failed build: $(tail -n 1 "$tmp/err"); no tiny-* entry in the cache"
else
	bad "a failed build: $(tail -n 2 "$tmp/err"); cache: $(ls "$fcache")"
fi
if k1=$(fake LANE_CONFIG="$tmp/frag" "$top/scripts/lane-build-kernel" 2> "$tmp/err") &&
	grep -q '^lane-build-kernel: built ' "$tmp/err" && [ -s "$k1" ] &&
	[ "$(cat "$(dirname "$k1")/source")" = "linux-source-fake 1.0-1 $fsha" ]; then
	ok "after the failed build the next one builds (not a cache hit): $k1, source $(cut -d' ' -f1-2 "$(dirname "$k1")/source")"
else
	bad "the build after a failed one: $(tail -n 2 "$tmp/err")"
fi
k2=$(fake LANE_CONFIG="$tmp/frag" "$top/scripts/lane-build-kernel" 2> "$tmp/err")
[ "$k2" = "$k1" ] && grep -q '^lane-build-kernel: cached ' "$tmp/err" &&
	ok "the same inputs again: a cache hit" || bad "second build: $k2 $(tail -n 1 "$tmp/err")"
# Patches: one that needs fuzz is refused; one that applies builds a
# variant, and is reverted for the next.
mkdir -p "$tmp/pfuzz" "$tmp/pgood"
cat > "$tmp/pfuzz/0001-fuzz.patch" <<'P'
--- a/kvm.c
+++ b/kvm.c
@@ -2,5 +2,5 @@
 two
 three
-four
+FOUR
 five
 SIX
P
cat > "$tmp/pgood/0001-good.patch" <<'P'
--- a/kvm.c
+++ b/kvm.c
@@ -3,3 +3,3 @@
 three
-four
+FOUR
 five
P
patch -s --dry-run -p1 -d "$fcache/tree-fake/linux-source-fake" < "$tmp/pfuzz/0001-fuzz.patch" > /dev/null 2>&1 &&
	ok "(the fuzz patch applies with patch's default fuzz)" || bad "the fuzz patch does not even apply with fuzz"
one_line "lane-build-kernel, a patch that needs fuzz" \
	"^lane-build-kernel: step 'patch' failed: $tmp/pfuzz/0001-fuzz.patch: does not apply to linux-source-fake 1\.0-1 with --fuzz=0" \
	fake LANE_CONFIG="$tmp/frag" LANE_PATCHES="$tmp/pfuzz" "$top/scripts/lane-build-kernel"
k3=$(fake LANE_CONFIG="$tmp/frag" LANE_PATCHES="$tmp/pgood" "$top/scripts/lane-build-kernel" 2> "$tmp/err")
[ -n "$k3" ] && [ "$k3" != "$k1" ] && grep -qx FOUR "$k3" &&
	[ "$(cat "$(dirname "$k3")/patches.list")" = pgood/0001-good.patch ] &&
	ok "a one-patch variant is built into its own cache entry ($(basename "$(dirname "$k3")"))" ||
	bad "patch variant: k1=$k1 k3=$k3: $(tail -n 2 "$tmp/err")"
fake LANE_CONFIG="$tmp/frag" LANE_PATCHES="$tmp/pfuzz" "$top/scripts/lane-build-kernel" > /dev/null 2>&1
grep -qx four "$fcache/tree-fake/linux-source-fake/kvm.c" && [ -z "$(ls -A "$fcache/tree-fake/applied")" ] &&
	ok "the next variant reverted it first (even though its own patch then failed)" ||
	bad "tree after a failed variant: $(grep -i four "$fcache/tree-fake/linux-source-fake/kvm.c"), applied: $(ls "$fcache/tree-fake/applied")"
k4=$(fake LANE_CONFIG="$tmp/frag" "$top/scripts/lane-build-kernel" 2> /dev/null)
[ "$k4" = "$k1" ] && ok "the unpatched kernel is still a cache hit" || bad "unpatched after variants: $k4, not $k1"
