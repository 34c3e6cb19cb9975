# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-walk-selftest-repo.sh - sourced by scripts/lane-walk-selftest: the
# small kernel history it walks and bisects, a git repository made from the
# lanes' own 6.1 source (/usr/src/linux-source-6.1.tar.xz) with fixed
# author, committer and dates, so its commit hashes, hence the lane cache's
# kernel keys, are the same on every run and every machine with that
# tarball. Made once under the lane cache (walk-selftest/repo-<key>, the key
# hashing the tarball's version, this file and the patches it commits) and
# reused.
#
# walk_repo: sets repo (its path) and the commits' hashes
#   c_import  the tarball as it is
#   c_base    + a file outside the build (the walk's first commit)
#   c_a  comment-only change in arch/x86/kvm/x86.c
#   c_b  a Documentation/ text change (no object rebuilt)
#   c_c  seed004-a-fastpath-invd/0001 (EXIT_FASTPATH_EXIT_USERSPACE)
#   c_d  seed004-a-fastpath-invd/0002 (INVD in the fastpath: invd cheaper)
#   c_e  a syntax error in arch/x86/kvm/x86.c (does not build)
#   c_f  its fix (x86.c as at c_d)
#   c_g  the seed004-b-xcr0-outside-loop series as one commit

walk_repo() {
	local tarball=/usr/src/linux-source-6.1.tar.xz ver key dir new
	[ -r "$tarball" ] || { echo "no $tarball (apt-get install linux-source-6.1)"; return 1; }
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
	local pa=$top/lanes/patches/seed004-a-fastpath-invd pb=$top/lanes/patches/seed004-b-xcr0-outside-loop
	key=$( { echo "$ver"; cat "${BASH_SOURCE[0]}" "$pa"/*.patch "$pb"/*.patch; } | sha256sum | cut -c1-12)
	dir=$cache/walk-selftest
	repo=$dir/repo-$key
	if [ ! -e "$repo/.git/walk-selftest-done" ]; then
		mkdir -p "$dir" || return 1
		new=$repo.new
		rm -rf "$new"
		mkdir -p "$new"
		note "making the test repository $repo from $tarball ($ver; once)"
		tar -xJf "$tarball" -C "$new" --strip-components=1 || { echo "tar -xJf $tarball failed"; return 1; }
		(
			set -e
			cd "$new"
			export GIT_AUTHOR_NAME="exitscope walk selftest" GIT_AUTHOR_EMAIL="walk-selftest@exitscope.invalid"
			export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
			export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
			n=0
			commit() {
				n=$((n + 1))
				export GIT_AUTHOR_DATE="2026-01-01T00:$(printf '%02d' $n):00+0000"
				export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
				git add -A -f
				git commit -q --no-verify -m "$1"
			}
			git init -q -b main .
			git config core.autocrlf false
			git config gc.auto 0
			commit "linux-source-6.1 $ver"
			echo "The exitscope lane walk's test history (scripts/lane-walk-selftest)." > WALK-SELFTEST
			commit "walk selftest: base"
			echo "/* walk selftest: a comment-only change */" >> arch/x86/kvm/x86.c
			commit "KVM: x86: a comment"
			echo "walk selftest: a documentation change." >> Documentation/virt/kvm/api.rst
			commit "Documentation: KVM: a line"
			patch -p1 -s --fuzz=0 --no-backup-if-mismatch < "$pa/0001-"*.patch
			commit "KVM: x86: EXIT_FASTPATH_EXIT_USERSPACE (seed004-a 0001)"
			patch -p1 -s --fuzz=0 --no-backup-if-mismatch < "$pa/0002-"*.patch
			commit "KVM: VMX, SVM: INVD in the fastpath (seed004-a 0002)"
			cp arch/x86/kvm/x86.c "$new.x86.c"
			echo "int walk_selftest_broken = ;" >> arch/x86/kvm/x86.c
			commit "KVM: x86: break the build"
			cp "$new.x86.c" arch/x86/kvm/x86.c
			rm -f "$new.x86.c"
			commit "KVM: x86: fix the build"
			for p in "$pb"/*.patch; do patch -p1 -s --fuzz=0 --no-backup-if-mismatch < "$p"; done
			commit "KVM: x86: XCR0/XSS switched outside the fastpath loop (seed004-b)"
			touch .git/walk-selftest-done
		) > "$dir/make-repo.log" 2>&1 || { echo "making $new failed: $(tail -n 1 "$dir/make-repo.log")"; return 1; }
		rm -rf "$repo"
		mv -T "$new" "$repo" || return 1
	fi
	# Left by an interrupted bisect of an earlier run.
	git -C "$repo" bisect reset -q >/dev/null 2>&1 || :
	git -C "$repo" checkout -q -f main || return 1
	local revs
	mapfile -t revs < <(git -C "$repo" rev-list --reverse main)
	[ ${#revs[@]} -eq 9 ] || { echo "$repo: ${#revs[@]} commits, not 9"; return 1; }
	c_import=${revs[0]} c_base=${revs[1]} c_a=${revs[2]} c_b=${revs[3]} c_c=${revs[4]}
	c_d=${revs[5]} c_e=${revs[6]} c_f=${revs[7]} c_g=${revs[8]}
}
