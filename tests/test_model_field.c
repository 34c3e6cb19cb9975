// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_model_field.c - the field-table layer (results/field.h) on a made-up
 * struct with one field of each type: the writer's JSON (key order, omitted
 * zeros, NULL strings), the reader filling the struct back, absent optional
 * fields, and the reader's error lines, which are jcheck's.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "base/err.h"
#include "results/field.h"
#include "tests/tap.h"

struct thing {
	char *name;
	char *note;
	int colour;
	long long count;
	double rate;
	bool on;
};

static const char *const colours[] = { "red", "green", "blue" };
static const struct field thing_field[] = {
	FIELD_STR(struct thing, name, "name", FIELD_REQUIRED),
	FIELD_ENUM(struct thing, colour, "colour", FIELD_REQUIRED, colours, 3),
	FIELD_INT(struct thing, count, "count", 0, -5, 100),
	FIELD_NUM(struct thing, rate, "rate", FIELD_OMIT_ZERO),
	FIELD_BOOL(struct thing, on, "on", FIELD_OMIT_ZERO),
	FIELD_STR(struct thing, note, "note", FIELD_EMPTY_OK | FIELD_OMIT_ZERO),
};
static const struct field_desc thing_fields = FIELD_DESC("thing", thing_field);

static char *dump(const struct thing *t)
{
	json_t *o = fields_write(&thing_fields, t);
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return s;
}

/* Read text into t; the error line (or "") into msg. */
static int read_text(const char *text, struct thing *t, char *msg, size_t len)
{
	struct err e;
	struct jcheck c = { .name = "t.json", .err = &e };
	json_t *o = json_loads(text, 0, NULL);
	int rc;

	err_init(&e);
	jcheck_push_key(&c, "things");
	jcheck_push_index(&c, 1);
	rc = fields_read(&c, o, &thing_fields, t);
	snprintf(msg, len, "%s", e.msg);
	json_decref(o);
	return rc;
}

static void test_write(void)
{
	struct thing t = { .name = "a", .colour = 2, .count = -3, .rate = 1.5, .on = true, .note = "n" };
	struct thing z = { .name = NULL, .colour = 0 };
	char *s = dump(&t);

	tap_is_str(s, "{\"name\":\"a\",\"colour\":\"blue\",\"count\":-3,\"rate\":1.5,\"on\":true,\"note\":\"n\"}",
		   "write: every type, in table order");
	free(s);
	s = dump(&z);
	tap_is_str(s, "{\"name\":\"\",\"colour\":\"red\",\"count\":0}",
		   "write: NULL string as \"\", zeros left out only where the table says");
	free(s);
	z.colour = 7;
	s = dump(&z);
	tap_like(s, "\"colour\":\"?\"", "write: an enum out of range is \"?\"");
	free(s);
}

static void test_read(void)
{
	struct thing t = { 0 };
	char msg[ERR_MSG_MAX];
	int rc = read_text("{\"name\":\"x\",\"colour\":\"green\",\"count\":100,\"rate\":0.25,\"on\":true,"
			   "\"note\":\"\"}", &t, msg, sizeof(msg));

	ok(!rc && t.name && !strcmp(t.name, "x") && t.colour == 1 && t.count == 100 && t.rate == 0.25 &&
	   t.on && t.note && !t.note[0], "read: every type back");
	fields_free(&thing_fields, &t);
	ok(!t.name && !t.note, "fields_free: strings freed and NULL");
	t = (struct thing){ .count = 9, .rate = 2 };
	rc = read_text("{\"name\":\"x\",\"colour\":\"red\"}", &t, msg, sizeof(msg));
	ok(!rc && t.count == 9 && t.rate == 2 && !t.on && t.note && !t.note[0],
	   "read: absent optionals leave members alone, an absent string becomes \"\"");
	fields_free(&thing_fields, &t);
}

static void test_errors(void)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\"colour\":\"red\"}", "t.json: things[1]: missing required field \"name\"" },
		{ "{\"name\":\"\",\"colour\":\"red\"}", "t.json: things[1].name: empty string" },
		{ "{\"name\":\"x\",\"colour\":\"pink\"}",
		  "t.json: things[1].colour: \"pink\" is not one of red, green, blue" },
		{ "{\"name\":\"x\",\"colour\":\"red\",\"count\":101}", "t.json: things[1].count: " },
		{ "{\"name\":\"x\",\"colour\":\"red\",\"count\":-6}", "t.json: things[1].count: " },
		{ "{\"name\":\"x\",\"colour\":\"red\",\"rate\":-1}", "t.json: things[1].rate: " },
		{ "{\"name\":\"x\",\"colour\":\"red\",\"on\":1}", "t.json: things[1].on: " },
		{ "{\"name\":\"x\",\"colour\":\"red\",\"note\":5}",
		  "t.json: things[1].note: not a string (found an integer)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct thing t = { 0 };
		char msg[ERR_MSG_MAX];
		int rc = read_text(bad[i].text, &t, msg, sizeof(msg));

		ok(rc == -EINVAL && !strncmp(msg, bad[i].msg, strlen(bad[i].msg)),
		   "read %s: refused with '%s...'", bad[i].text, bad[i].msg);
		if (rc != -EINVAL || strncmp(msg, bad[i].msg, strlen(bad[i].msg)))
			diag("  rc %d, got '%s'", rc, msg);
		fields_free(&thing_fields, &t);
	}
}

int main(void)
{
	tap_plan(14);
	test_write();
	test_read();
	test_errors();
	return tap_done();
}
