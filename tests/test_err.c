// SPDX-License-Identifier: GPL-2.0-only
/* test_err.c - base/err.c (the one way to report an error) and base/num.c (digits-only numbers). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "base/num.h"
#include "tests/tap.h"

static void test_set(void)
{
	struct err e;

	err_init(&e);
	ok(e.code == 0 && e.msg[0] == '\0', "err_init: no code, empty message");
	is_int(err_set(&e, -EINVAL, "%s: line %d: bad", "a.txt", 3), -EINVAL, "err_set returns the code");
	is_int(e.code, -EINVAL, "err_set keeps the code");
	tap_is_str(e.msg, "a.txt: line 3: bad", "err_set formats the message");
	is_int(err_set(NULL, -ENOMEM, "x"), -ENOMEM, "err_set on NULL returns the code");
	err_init(&e);
	ok(e.code == 0 && e.msg[0] == '\0', "err_init clears an error that was set");
}

static void test_truncate(void)
{
	static char big[ERR_MSG_MAX * 2];
	struct err e;

	memset(big, 'x', sizeof(big) - 1);
	memset(&e, 0x55, sizeof(e));
	err_set(&e, -E2BIG, "%s", big);
	is_int((long long)strlen(e.msg), ERR_MSG_MAX - 1, "a long message is cut to the buffer");
	ok(e.msg[ERR_MSG_MAX - 1] == '\0', "a cut message is NUL-terminated");
	err_prefix(&e, "file");
	is_int((long long)strlen(e.msg), ERR_MSG_MAX - 1, "prefixing a full message stays in the buffer");
	ok(strncmp(e.msg, "file: xxx", 9) == 0, "the prefix is kept, the end is cut");
	err_set(&e, -EINVAL, "tail");
	err_prefix(&e, "%s", big);
	is_int((long long)strlen(e.msg), ERR_MSG_MAX - 1, "a prefix longer than the buffer is cut");
}

static void test_prefix(void)
{
	struct err e;

	err_init(&e);
	err_set(&e, -ENOENT, "No such file or directory");
	is_int(err_prefix(&e, "expectations file %s", "m.txt"), -ENOENT, "err_prefix returns the code");
	tap_is_str(e.msg, "expectations file m.txt: No such file or directory", "err_prefix puts context first");
	is_int(err_prefix(NULL, "x"), 0, "err_prefix on NULL is harmless");
}

static void test_num(void)
{
	uint64_t v = 7;

	ok(num_parse_u64("42", false, 100, &v) == 0 && v == 42, "num_parse_u64: decimal");
	ok(num_parse_u64("0x1F", true, 100, &v) == 0 && v == 31, "num_parse_u64: 0x with hex");
	is_int(num_parse_u64("0x1F", false, 100, &v), -EINVAL, "num_parse_u64: 0x without hex");
	is_int(num_parse_u64("101", false, 100, &v), -ERANGE, "num_parse_u64: above max");
	is_int(num_parse_u64("99999999999999999999", false, UINT64_MAX, &v), -ERANGE,
	       "num_parse_u64: beyond 64 bits");
	is_int(num_parse_u64("-1", false, UINT64_MAX, &v), -EINVAL, "num_parse_u64: no sign");
	is_int(num_parse_u64(" 1", false, UINT64_MAX, &v), -EINVAL, "num_parse_u64: no space");
	is_int(num_parse_u64("", false, UINT64_MAX, &v), -EINVAL, "num_parse_u64: empty");
	is_int(num_parse_u64("0x", true, UINT64_MAX, &v), -EINVAL, "num_parse_u64: 0x alone");
	is_int(num_parse_u64("0x0x1", true, UINT64_MAX, &v), -EINVAL, "num_parse_u64: a second 0x");
	is_int(num_parse_u64("1k", false, UINT64_MAX, &v), -EINVAL, "num_parse_u64: nothing after it");
	ok(num_parse_u64("007", false, 100, &v) == 0 && v == 7, "num_parse_u64: leading zeros");
	is_int((long long)v, 7, "failures leave *out untouched");
	ok(num_parse_digits("ffff8000", 16, UINT64_MAX, &v) == 0 && v == 0xffff8000,
	   "num_parse_digits: base 16 without a prefix");
	is_int(num_parse_digits(NULL, 10, UINT64_MAX, &v), -EINVAL, "num_parse_digits: NULL");
	is_int(num_parse_digits("12a", 10, UINT64_MAX, &v), -EINVAL, "num_parse_digits: a hex digit in base 10");
}

int main(void)
{
	tap_plan(30);
	test_set();
	test_truncate();
	test_prefix();
	test_num();
	return tap_done();
}
