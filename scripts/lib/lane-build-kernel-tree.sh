# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154,SC2034 # tmp, cache, top: set by lane-build-kernel; pkg, ver, ...: read there
# lane-build-kernel-tree.sh - sourced by scripts/lane-build-kernel when
# LANE_SOURCE is a path (it has a '/'): a kernel source tree of the user's,
# a git repository (at LANE_REV, or HEAD plus its uncommitted diff) or a
# plain directory. The user's tree is never written to: the build happens in
# a copy under the lane cache, kept from one build to the next.
#
# tree_resolve sets what the cache key and the record need (sname, pkg, ver,
# extra, srcid, tree_desc) without touching the cache; tree_prepare, under
# the tree's lock, brings the cache's copy ($src) to that state:
#   git  tree-git-<id>/src: `git clone --shared --no-checkout` of the repo
#        (<id> hashes the repository's real path), `git checkout -f --detach
#        <hash>` and `git clean -fdq` (build outputs are ignored files: kept,
#        so make rebuilds only what the checkout rewrote), then the dirty
#        diff applied with `git apply`
#   dir  tree-dir-<id>/src: every file of the directory copied with `rsync
#        -a`, and the files of the last copy that the directory no longer
#        has deleted (tree-dir-<id>/files, the last list): the copy's build
#        outputs stay. rsync compares contents (--checksum: the copy's
#        mtimes are not the directory's); what it rewrote is touched, the
#        rest keeps its mtime, so make rebuilds what changed. A directory built in place
#        (a .config or include/generated) is refused: its objects and
#        generated files would be taken for sources (its .gitignore cannot
#        tell them apart: Debian's linux-source ignores everything at its
#        top level).

# tree_version FILE: "X.Y.Z" of a kernel Makefile on stdin.
tree_version() {
	awk '/^VERSION *=/ { v = $3 } /^PATCHLEVEL *=/ { p = $3 } /^SUBLEVEL *=/ { s = $3 }
		END { if (v == "" || p == "") exit 1; print v "." p (s == "" ? "" : "." s) }'
}

tree_resolve() {
	local path=$LANE_SOURCE id v
	[ -d "$path" ] || die "kernel source" "LANE_SOURCE $path: no such directory"
	repo=$(cd "$path" && pwd -P)
	tree_diff=
	if top_git=$(git -C "$repo" rev-parse --show-toplevel 2>/dev/null) && [ -n "$top_git" ]; then
		tree_kind=git
		repo=$(cd "$top_git" && pwd -P)
		local want=${LANE_REV:-HEAD}
		rev_hash=$(git -C "$repo" rev-parse -q --verify "$want^{commit}" 2>/dev/null) ||
			die "kernel source" "$repo: no commit '$want' (LANE_REV)"
		if [ -z "${LANE_REV:-}" ]; then
			# A dirty checkout is built as HEAD plus its diff, keyed by it.
			git -C "$repo" --no-optional-locks diff --binary HEAD > "$tmp/tree.diff" ||
				die "kernel source" "$repo: git diff HEAD failed"
			if [ -s "$tmp/tree.diff" ]; then
				tree_diff=$(sha256sum < "$tmp/tree.diff" | cut -d' ' -f1)
				note "$repo has uncommitted changes: building HEAD ${rev_hash:0:12} + its diff (sha256 ${tree_diff:0:16}; untracked files are not included)"
			fi
		fi
		if [ -n "$tree_diff" ]; then
			v=$(tree_version < "$repo/Makefile") || v=
		else
			v=$(git -C "$repo" show "$rev_hash:Makefile" 2>/dev/null | tree_version) || v=
		fi
		tree_desc="git $repo $rev_hash${tree_diff:+ +diff $tree_diff}"
	else
		[ -z "${LANE_REV:-}" ] || die "kernel source" "LANE_REV=$LANE_REV: $repo is not a git repository"
		[ -f "$repo/Makefile" ] || die "kernel source" "$repo: no Makefile (not a kernel source tree)"
		command -v rsync >/dev/null || die "kernel tools" "rsync: not found (apt-get install rsync)"
		[ ! -e "$repo/.config" ] && [ ! -d "$repo/include/generated" ] ||
			die "kernel source" "$repo: built in place (it has a .config or include/generated): 'make mrproper' there, or a git repository or a clean copy as LANE_SOURCE"
		tree_kind=dir
		v=$(tree_version < "$repo/Makefile") || v=
		# What rsync compares (names, sizes, mtimes, modes of the files it
		# copies), hashed: the state of the directory, without reading it all.
		local fp
		tree_files "$repo" > "$tmp/files" || die "kernel source" "$repo: listing its files (git ls-files) failed"
		fp=$(cd "$repo" && xargs -0 -r stat -c '%n %s %Y %a' -- < "$tmp/files" | sha256sum | cut -c1-16) ||
			die "kernel source" "$repo: stat of its files failed"
		tree_desc="dir $repo listing $fp"
	fi
	[ -n "$v" ] || die "kernel source" "$repo: no VERSION/PATCHLEVEL in its Makefile (not a kernel source tree)"
	id=$(printf '%s' "$repo" | sha256sum | cut -c1-12)
	sname=$tree_kind-$id
	pkg=src
	ver=$v
	pinsha=tree
	tarball=
	# The config family: 6.12 and later take the CET fragment, as the
	# pinned 6.12 and 7.2 do (lanes/kernel-sources).
	extra=-
	local major=${v%%.*} minor=${v#*.}
	minor=${minor%%.*}
	if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 12 ]; }; then
		extra=$top/lanes/tiny-kernel-cet.config
	fi
	srcid="tree $tree_desc"
}

# tree_files DIR: DIR's files (and symlinks), NUL-separated and sorted.
tree_files() {
	(cd "$1" && find . \( -type f -o -type l \) -printf '%P\0') | LC_ALL=C sort -z
}

tree_prepare() {
	tree=$cache/tree-$sname
	src=$tree/src
	applied=$tree/applied
	if [ ! -e "$tree/.extracted" ]; then
		local new=$tree.new
		rm -rf "$tree" "$new"
		mkdir -p "$new/applied"
		if [ "$tree_kind" = git ]; then
			note "cloning $repo (git clone --shared --no-checkout) into $tree"
			git clone -q --shared --no-checkout "$repo" "$new/src" 2> "$tmp/err" ||
				{ rm -rf "$new"; die "kernel source" "$repo: git clone failed: $(tail -n 1 "$tmp/err")"; }
		else
			mkdir -p "$new/src"
		fi
		echo "$repo" > "$new/origin"
		touch "$new/.extracted"
		mv -T "$new" "$tree"
	fi
	if [ "$tree_kind" = git ]; then
		if ! git -C "$src" cat-file -e "$rev_hash^{commit}" 2>/dev/null; then
			git -C "$src" fetch -q origin 2> "$tmp/err" ||
				die "kernel source" "$repo: git fetch into $src failed: $(tail -n 1 "$tmp/err")"
			git -C "$src" cat-file -e "$rev_hash^{commit}" 2>/dev/null ||
				git -C "$src" fetch -q origin "$rev_hash" 2> "$tmp/err" ||
				die "kernel source" "$repo: $rev_hash not in the clone $src after git fetch"
		fi
		note "checking out ${rev_hash:0:12} in $src"
		git -C "$src" checkout -q -f --detach "$rev_hash" 2> "$tmp/err" ||
			die "kernel source" "$src: git checkout $rev_hash failed: $(tail -n 1 "$tmp/err")"
		git -C "$src" clean -fdq 2> "$tmp/err" ||
			die "kernel source" "$src: git clean failed: $(tail -n 1 "$tmp/err")"
		if [ -n "$tree_diff" ]; then
			git -C "$src" apply --whitespace=nowarn "$tmp/tree.diff" 2> "$tmp/err" ||
				die "kernel source" "$repo: its uncommitted diff does not apply to $rev_hash: $(head -n 1 "$tmp/err")"
		fi
	else
		note "rsync $repo/ -> $src/"
		rsync -a --checksum --from0 --files-from="$tmp/files" --out-format='%n' "$repo/" "$src/" > "$tmp/copied" 2> "$tmp/err" ||
			die "kernel source" "rsync $repo -> $src failed: $(tail -n 1 "$tmp/err")"
		# Files of the last copy that the directory no longer has.
		if [ -s "$tree/files" ]; then
			(cd "$src" && LC_ALL=C comm -z -23 "$tree/files" "$tmp/files" | xargs -0 -r rm -f --) ||
				die "kernel source" "$src: removing what $repo no longer has failed"
		fi
		cp "$tmp/files" "$tree/files"
		# A file rsync rewrote is new to make, whatever its mtime in the
		# source (a file restored with an old mtime, a patch of the last
		# variant undone): touched, so make rebuilds what depends on it.
		(cd "$src" && { grep -v '/$' "$tmp/copied" || :; } | tr '\n' '\0' | xargs -0 -r touch -c --) ||
			die "kernel source" "$src: touching the files rsync copied failed"
	fi
	# The checkout or rsync undid the previous variant's patches.
	rm -f "$applied"/*
}
