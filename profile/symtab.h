/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symtab.h - a lane kernel's text symbols from its System.map (the lanes
 * boot with nokaslr, so the addresses are the running kernel's): load,
 * then find the function an address lies in.
 */
#ifndef EXITSCOPE_PROFILE_SYMTAB_H
#define EXITSCOPE_PROFILE_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct sym {
	uint64_t addr;
	char *name;
	unsigned char global;	/* T or W */
	size_t order;		/* line order, for names at one address */
};

struct symtab {
	struct sym *syms;	/* text symbols by address, one per address */
	size_t n;
	uint64_t text_end;	/* _etext: past the last function */
};

/* Larger files are refused (a distribution kernel's System.map is a few MB). */
#define SYMTAB_MAX_BYTES	(256u << 20)

/*
 * Load path, a regular file of at most SYMTAB_MAX_BYTES (results/file_read.h).
 * 0, or -errno with err naming the file and saying why: -ENOENT there is
 * none, -EIO it cannot be read as an input (a FIFO, a device, a directory,
 * too large, unreadable), -EINVAL it is no System.map (a line that is no
 * "ADDRESS TYPE NAME", a text symbol's name that is not UTF-8) or has no
 * text, -ENOMEM.
 */
int symtab_load(struct symtab *st, const char *path, struct err *err);
void symtab_free(struct symtab *st);
/* The function addr lies in (the last symbol at or below it, before _etext), or NULL. */
const struct sym *symtab_find(const struct symtab *st, uint64_t addr);
/*
 * Is s[0..n-1] UTF-8 as JSON takes it (RFC 3629: no overlong form, no
 * surrogate, nothing past U+10FFFF)? What a name written into a result
 * file must be.
 */
bool symtab_utf8(const char *s, size_t n);
/* The symbol called name, or NULL. */
const struct sym *symtab_lookup(const struct symtab *st, const char *name);

#endif
