/* result_read.c - load an exitscope result file and validate it into C structs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/jcheck.h"
#include "results/result_read.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *const result_per_op_names[] = {
	"exits", "io_exits", "mmio_exits", "halt_exits",
	"hypercalls", "insn_emulation", "signal_exits", "irq_exits",
};

static const char *const backend_names[] = { "kvm_intel", "kvm_amd", "kvm_pvm", "other", "none" };

#define LL_MAX LLONG_MAX

/* Run a getter; on error leave the function with -1. Absent optionals fall through. */
#define TRY(expr) do { if ((expr) < 0) return -1; } while (0)

static void *alloc_array(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

/* An array of strings (warnings, notes, command). */
static int read_strings(struct jcheck *c, json_t *obj, const char *key,
			const char ***out, size_t *n)
{
	json_t *arr, *v;
	size_t i, mark;
	int rc = jcheck_array(c, obj, key, JCHECK_OPTIONAL, RESULT_MAX_ITEMS, &arr);

	if (rc)
		return rc;
	if (out) {
		*out = alloc_array(json_array_size(arr), sizeof(**out));
		if (!*out)
			return jcheck_fail(c, "out of memory");
	}
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v)) {
			mark = jcheck_push_key(c, key);
			jcheck_push_index(c, i);
			jcheck_fail(c, "not a string (found %s)", jcheck_type_name(v));
			jcheck_pop(c, mark);
			return -1;
		}
		if (out)
			(*out)[i] = json_string_value(v);
	}
	if (n)
		*n = json_array_size(arr);
	return 0;
}

static int read_backend(struct jcheck *c, json_t *host, struct result_host *h)
{
	json_t *be, *params, *v;
	const char *key;
	size_t mark, i = 0;
	int idx, rc;

	TRY(jcheck_object(c, host, "backend", JCHECK_REQUIRED, &be));
	mark = jcheck_push_key(c, "backend");
	TRY(jcheck_enum(c, be, "module", JCHECK_REQUIRED, backend_names,
			ARRAY_SIZE(backend_names), &idx));
	h->backend_module = backend_names[idx];
	rc = jcheck_object(c, be, "params", JCHECK_OPTIONAL, &params);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		jcheck_push_key(c, "params");
		if (json_object_size(params) > RESULT_MAX_ITEMS)
			return jcheck_fail(c, "too many entries");
		h->backend_params = alloc_array(json_object_size(params), sizeof(*h->backend_params));
		if (!h->backend_params)
			return jcheck_fail(c, "out of memory");
		json_object_foreach(params, key, v) {
			TRY(jcheck_string(c, params, key, JCHECK_REQUIRED, 1, &h->backend_params[i].value));
			h->backend_params[i++].key = key;
		}
		h->n_backend_params = i;
	}
	jcheck_pop(c, mark);
	return 0;
}

static int read_cpu(struct jcheck *c, json_t *host, struct result_host *h)
{
	json_t *cpu;
	size_t mark;

	TRY(jcheck_object(c, host, "cpu", JCHECK_REQUIRED, &cpu));
	mark = jcheck_push_key(c, "cpu");
	TRY(jcheck_string(c, cpu, "vendor", JCHECK_REQUIRED, 1, &h->cpu_vendor));
	TRY(jcheck_int(c, cpu, "family", JCHECK_REQUIRED, 0, LL_MAX, &h->cpu_family));
	TRY(jcheck_int(c, cpu, "model", JCHECK_REQUIRED, 0, LL_MAX, &h->cpu_model));
	TRY(jcheck_int(c, cpu, "stepping", JCHECK_REQUIRED, 0, LL_MAX, &h->cpu_stepping));
	TRY(jcheck_string(c, cpu, "name", JCHECK_REQUIRED, 1, &h->cpu_name));
	jcheck_pop(c, mark);
	return 0;
}

/* Optional parts of the host record: validated when present. */
static int read_host_extras(struct jcheck *c, json_t *host, struct result_host *h)
{
	json_t *kvm, *caps, *cpuid, *msrs, *v;
	const char *key;
	size_t mark, i = 0;
	long long dummy;
	int b, rc;

	rc = jcheck_object(c, host, "kvm", JCHECK_OPTIONAL, &kvm);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		mark = jcheck_push_key(c, "kvm");
		TRY(jcheck_int(c, kvm, "api_version", JCHECK_OPTIONAL, 0, LL_MAX, &h->kvm_api_version));
		rc = jcheck_object(c, kvm, "caps", JCHECK_OPTIONAL, &caps);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			jcheck_push_key(c, "caps");
			json_object_foreach(caps, key, v)
				TRY(jcheck_int(c, caps, key, JCHECK_REQUIRED, -LL_MAX, LL_MAX, &dummy));
			h->n_kvm_caps = json_object_size(caps);
		}
		jcheck_pop(c, mark);
	}

	rc = jcheck_object(c, host, "cpuid", JCHECK_OPTIONAL, &cpuid);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		mark = jcheck_push_key(c, "cpuid");
		if (json_object_size(cpuid) > RESULT_MAX_ITEMS)
			return jcheck_fail(c, "too many entries");
		h->cpuid = alloc_array(json_object_size(cpuid), sizeof(*h->cpuid));
		if (!h->cpuid)
			return jcheck_fail(c, "out of memory");
		json_object_foreach(cpuid, key, v) {
			TRY(jcheck_bool(c, cpuid, key, JCHECK_REQUIRED, &b));
			h->cpuid[i].key = key;
			h->cpuid[i].value = b;
			i++;
		}
		h->n_cpuid = i;
		jcheck_pop(c, mark);
	}

	TRY(jcheck_int(c, host, "xcr0_supported", JCHECK_OPTIONAL, 0, LL_MAX, &h->xcr0_supported));
	TRY(jcheck_int(c, host, "xss_supported", JCHECK_OPTIONAL, 0, LL_MAX, &h->xss_supported));

	rc = jcheck_object(c, host, "msr_save_list", JCHECK_OPTIONAL, &msrs);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		mark = jcheck_push_key(c, "msr_save_list");
		json_object_foreach(msrs, key, v)
			TRY(jcheck_bool(c, msrs, key, JCHECK_REQUIRED, &b));
		jcheck_pop(c, mark);
	}
	return 0;
}

static int read_host(struct jcheck *c, json_t *root, struct result_host *h)
{
	json_t *host, *ex;
	size_t mark;
	int idx;

	h->kvm_api_version = h->xcr0_supported = h->xss_supported = -1;
	TRY(jcheck_object(c, root, "host", JCHECK_REQUIRED, &host));
	mark = jcheck_push_key(c, "host");
	TRY(jcheck_string(c, host, "kernel", JCHECK_REQUIRED, 0, &h->kernel));
	TRY(read_backend(c, host, h));
	TRY(read_cpu(c, host, h));
	TRY(jcheck_int(c, host, "tsc_khz", JCHECK_REQUIRED, 0, LL_MAX, &h->tsc_khz));
	TRY(jcheck_object(c, host, "execution", JCHECK_REQUIRED, &ex));
	jcheck_push_key(c, "execution");
	TRY(jcheck_enum(c, ex, "mode", JCHECK_REQUIRED, exec_mode_names, EXEC_MODE_N, &idx));
	h->exec_mode = idx;
	TRY(jcheck_string(c, ex, "detail", JCHECK_OPTIONAL, 1, &h->exec_detail));
	jcheck_pop(c, mark);
	jcheck_push_key(c, "host");
	TRY(read_host_extras(c, host, h));
	jcheck_pop(c, mark);
	return 0;
}

static int read_samples(struct jcheck *c, json_t *obj, struct result_probe *p)
{
	json_t *arr, *v;
	size_t i, mark;
	double d;

	TRY(jcheck_array(c, obj, "samples", JCHECK_REQUIRED, RESULT_MAX_ITEMS, &arr));
	mark = jcheck_push_key(c, "samples");
	if (json_array_size(arr) == 0)
		return jcheck_fail(c, "no samples (status is \"ok\")");
	p->samples = malloc(json_array_size(arr) * sizeof(*p->samples));
	if (!p->samples)
		return jcheck_fail(c, "out of memory");
	json_array_foreach(arr, i, v) {
		d = json_is_number(v) ? json_number_value(v) : -1;
		if (!json_is_number(v) || !(d >= 0) || !isfinite(d)) {
			jcheck_push_index(c, i);
			return jcheck_fail(c, "not a finite non-negative number");
		}
		p->samples[i] = d;
	}
	p->n_samples = json_array_size(arr);
	jcheck_pop(c, mark);
	return 0;
}

static int read_measurement(struct jcheck *c, json_t *obj, struct result_probe *p)
{
	static const char *const cyc_names[] = {
		"min", "median", "p90", "p99", "mean", "stddev", "cv", "ci95_lo", "ci95_hi",
	};
	double *cyc[] = {
		&p->cycles.min, &p->cycles.median, &p->cycles.p90, &p->cycles.p99,
		&p->cycles.mean, &p->cycles.stddev, &p->cycles.cv, &p->cycles.ci95_lo,
		&p->cycles.ci95_hi,
	};
	json_t *cycles, *per_op, *trace, *v;
	const char *key;
	size_t i, mark;
	int rc;

	TRY(jcheck_int(c, obj, "batch", JCHECK_REQUIRED, 1, LL_MAX, &p->batch));
	TRY(read_samples(c, obj, p));
	TRY(jcheck_object(c, obj, "cycles", JCHECK_REQUIRED, &cycles));
	mark = jcheck_push_key(c, "cycles");
	for (i = 0; i < ARRAY_SIZE(cyc_names); i++)
		TRY(jcheck_num(c, cycles, cyc_names[i], JCHECK_REQUIRED, cyc[i]));
	jcheck_pop(c, mark);
	p->ns_median = p->overhead_cycles = -1;
	TRY(jcheck_num(c, obj, "ns_median", JCHECK_OPTIONAL, &p->ns_median));
	TRY(jcheck_num(c, obj, "overhead_cycles", JCHECK_OPTIONAL, &p->overhead_cycles));
	TRY(jcheck_object(c, obj, "per_op", JCHECK_REQUIRED, &per_op));
	jcheck_push_key(c, "per_op");
	for (i = 0; i < RESULT_PER_OP_N; i++)
		TRY(jcheck_num(c, per_op, result_per_op_names[i], JCHECK_REQUIRED, &p->per_op[i]));
	jcheck_pop(c, mark);
	rc = jcheck_object(c, obj, "trace", JCHECK_OPTIONAL, &trace);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		jcheck_push_key(c, "trace");
		if (json_object_size(trace) > RESULT_MAX_ITEMS)
			return jcheck_fail(c, "too many entries");
		p->trace = alloc_array(json_object_size(trace), sizeof(*p->trace));
		if (!p->trace)
			return jcheck_fail(c, "out of memory");
		i = 0;
		json_object_foreach(trace, key, v) {
			TRY(jcheck_num(c, trace, key, JCHECK_REQUIRED, &p->trace[i].value));
			p->trace[i++].key = key;
		}
		p->n_trace = i;
		jcheck_pop(c, mark);
	}
	return 0;
}

static int read_probe(struct jcheck *c, json_t *obj, struct result_probe *p)
{
	int idx;

	if (!json_is_object(obj))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(obj));
	TRY(jcheck_string(c, obj, "name", JCHECK_REQUIRED, 0, &p->name));
	TRY(jcheck_string(c, obj, "group", JCHECK_REQUIRED, 0, &p->group));
	TRY(jcheck_string(c, obj, "description", JCHECK_OPTIONAL, 1, &p->description));
	TRY(jcheck_enum(c, obj, "status", JCHECK_REQUIRED, probe_status_names, PROBE_STATUS_N, &idx));
	p->status = idx;
	if (p->status != PROBE_OK) {
		if (!json_object_get(obj, "reason"))
			return jcheck_fail(c, "missing required field \"reason\" (status is \"%s\")",
					   probe_status_names[idx]);
		TRY(jcheck_string(c, obj, "reason", JCHECK_REQUIRED, 1, &p->reason));
		return 0;
	}
	TRY(jcheck_string(c, obj, "reason", JCHECK_OPTIONAL, 1, &p->reason));
	TRY(read_strings(c, obj, "notes", &p->notes, &p->n_notes));
	return read_measurement(c, obj, p);
}

static int read_probes(struct jcheck *c, json_t *root, struct result_file *rf)
{
	json_t *arr, *v;
	size_t i, j, mark;
	char q[80];
	int rc;

	rc = jcheck_array(c, root, "probes",
			  rf->kind == RESULT_KIND_RUN ? JCHECK_REQUIRED : JCHECK_OPTIONAL,
			  RESULT_MAX_ITEMS, &arr);
	if (rc)
		return rc;
	rf->probes = alloc_array(json_array_size(arr), sizeof(*rf->probes));
	if (!rf->probes)
		return jcheck_fail(c, "out of memory");
	json_array_foreach(arr, i, v) {
		mark = jcheck_push_key(c, "probes");
		jcheck_push_index(c, i);
		rf->n_probes = i + 1;
		TRY(read_probe(c, v, &rf->probes[i]));
		/* Names are the key compare matches on: they must be unique. */
		for (j = 0; j < i; j++) {
			if (strcmp(rf->probes[j].name, rf->probes[i].name) == 0) {
				jcheck_push_key(c, "name");
				return jcheck_fail(c, "duplicate probe \"%s\" (also probes[%zu])",
						   jcheck_quote(rf->probes[i].name, q, sizeof(q)), j);
			}
		}
		jcheck_pop(c, mark);
	}
	return 0;
}

/* The "map" object: the ownership-map model reads it (results/map.c). */
static int read_map(struct jcheck *c, json_t *root, struct result_file *rf)
{
	json_t *map;
	size_t mark;
	int rc = jcheck_object(c, root, "map", JCHECK_OPTIONAL, &map);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, "map");
	rc = result_map_read(c, map, &rf->map);
	jcheck_pop(c, mark);
	return rc;
}

static int read_checks(struct jcheck *c, json_t *root, struct result_file *rf)
{
	json_t *arr, *v;
	size_t i, mark;
	int idx, rc = jcheck_array(c, root, "checks", JCHECK_OPTIONAL, RESULT_MAX_ITEMS, &arr);

	if (rc)
		return rc;
	rf->checks = alloc_array(json_array_size(arr), sizeof(*rf->checks));
	if (!rf->checks)
		return jcheck_fail(c, "out of memory");
	json_array_foreach(arr, i, v) {
		struct result_check *k = &rf->checks[i];

		mark = jcheck_push_key(c, "checks");
		jcheck_push_index(c, i);
		if (!json_is_object(v))
			return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(v));
		TRY(jcheck_string(c, v, "suite", JCHECK_REQUIRED, 0, &k->suite));
		TRY(jcheck_string(c, v, "name", JCHECK_REQUIRED, 0, &k->name));
		TRY(jcheck_enum(c, v, "status", JCHECK_REQUIRED, check_status_names, CHECK_STATUS_N, &idx));
		k->status = idx;
		TRY(jcheck_string(c, v, "detail", JCHECK_OPTIONAL, 1, &k->detail));
		jcheck_pop(c, mark);
	}
	rf->n_checks = json_array_size(arr);
	return 0;
}

static int read_header(struct jcheck *c, json_t *root, struct result_file *rf)
{
	json_t *schema, *version, *tool;
	const char *s;
	char q[80];
	int idx, rc;

	schema = json_object_get(root, "schema");
	if (!schema)
		return jcheck_fail(c, "missing required field \"schema\" (not an exitscope result file?)");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), RESULT_SCHEMA) != 0) {
		jcheck_push_key(c, "schema");
		if (!json_is_string(schema))
			return jcheck_fail(c, "not a string (found %s)", jcheck_type_name(schema));
		return jcheck_fail(c, "\"%s\" is not \"" RESULT_SCHEMA "\" (not an exitscope result file?)",
				   jcheck_quote(json_string_value(schema), q, sizeof(q)));
	}
	version = json_object_get(root, "schema_version");
	if (!version)
		return jcheck_fail(c, "missing required field \"schema_version\"");
	jcheck_push_key(c, "schema_version");
	if (!json_is_integer(version))
		return jcheck_fail(c, "not an integer (found %s)", jcheck_type_name(version));
	if (json_integer_value(version) != RESULT_SCHEMA_VERSION)
		return jcheck_fail(c, "unsupported version %lld (this exitscope reads %d)",
				   (long long)json_integer_value(version), RESULT_SCHEMA_VERSION);
	jcheck_pop(c, 0);

	TRY(jcheck_enum(c, root, "kind", JCHECK_REQUIRED, result_kind_names, RESULT_KIND_N, &idx));
	rf->kind = idx;
	rc = jcheck_object(c, root, "tool", JCHECK_OPTIONAL, &tool);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		jcheck_push_key(c, "tool");
		TRY(jcheck_string(c, tool, "name", JCHECK_OPTIONAL, 1, &s));
		TRY(jcheck_string(c, tool, "version", JCHECK_OPTIONAL, 1, &rf->tool_version));
		jcheck_pop(c, 0);
	}
	TRY(read_strings(c, root, "command", NULL, NULL));
	TRY(jcheck_string(c, root, "started", JCHECK_OPTIONAL, 1, &rf->started));
	TRY(jcheck_string(c, root, "finished", JCHECK_OPTIONAL, 1, &rf->finished));
	return 0;
}

static int read_document(struct jcheck *c, json_t *root, struct result_file *rf)
{
	if (!json_is_object(root))
		return jcheck_fail(c, "top level is %s, not an object", jcheck_type_name(root));
	TRY(read_header(c, root, rf));
	TRY(read_host(c, root, &rf->host));
	TRY(read_probes(c, root, rf));
	TRY(read_map(c, root, rf));
	TRY(read_checks(c, root, rf));
	TRY(read_strings(c, root, "warnings", &rf->warnings, &rf->n_warnings));
	return 0;
}

static int is_blank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r')
			return 0;
	return 1;
}

struct result_file *result_read_buffer(const char *name, const void *buf, size_t len,
				       char *err, size_t errlen)
{
	struct jcheck c = { .name = name, .err = err, .errlen = errlen };
	struct result_file *rf;
	json_error_t jerr;
	json_t *root;

	if (err && errlen)
		err[0] = '\0';
	if (len == 0 || is_blank(buf, len)) {
		jcheck_fail(&c, "empty file");
		return NULL;
	}
	if (len > RESULT_MAX_FILE_BYTES) {
		jcheck_fail(&c, "file too large (%zu bytes, limit %u)", len, RESULT_MAX_FILE_BYTES);
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (json_error_code(&jerr) == json_error_premature_end_of_input)
			jcheck_fail(&c, "truncated JSON at line %d, column %d: %s",
				    jerr.line, jerr.column, jerr.text);
		else
			jcheck_fail(&c, "invalid JSON at line %d, column %d: %s",
				    jerr.line, jerr.column, jerr.text);
		return NULL;
	}
	rf = calloc(1, sizeof(*rf));
	if (rf)
		rf->name = strdup(name);
	if (!rf || !rf->name) {
		free(rf);
		json_decref(root);
		jcheck_fail(&c, "out of memory");
		return NULL;
	}
	rf->doc = root;
	if (read_document(&c, root, rf) < 0) {
		result_free(rf);
		return NULL;
	}
	return rf;
}

/* Read all of fd (at most the size limit + 1 byte, so too-large input is seen). */
static char *read_fd(int fd, size_t *len, int *errnum)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	while (buf) {
		if (n == cap) {
			if (cap > RESULT_MAX_FILE_BYTES)
				break;
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*errnum = errno;
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!buf)
		*errnum = ENOMEM;
	*len = n;
	return buf;
}

struct result_file *result_read_file(const char *path, char *err, size_t errlen)
{
	struct jcheck c = { .name = path, .err = err, .errlen = errlen };
	struct result_file *rf;
	struct stat st;
	size_t len = 0;
	char *buf;
	int fd, errnum = 0;

	if (err && errlen)
		err[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		jcheck_fail(&c, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			jcheck_fail(&c, "is a directory, not a result file");
			return NULL;
		}
		if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > RESULT_MAX_FILE_BYTES) {
			close(fd);
			jcheck_fail(&c, "file too large (%lld bytes, limit %u)",
				    (long long)st.st_size, RESULT_MAX_FILE_BYTES);
			return NULL;
		}
	}
	buf = read_fd(fd, &len, &errnum);
	close(fd);
	if (!buf) {
		jcheck_fail(&c, "cannot read: %s", strerror(errnum));
		return NULL;
	}
	if (len > RESULT_MAX_FILE_BYTES) {
		free(buf);
		jcheck_fail(&c, "file too large (more than %u bytes)", RESULT_MAX_FILE_BYTES);
		return NULL;
	}
	rf = result_read_buffer(path, buf, len, err, errlen);
	free(buf);
	return rf;
}

const struct result_probe *result_find_probe(const struct result_file *rf, const char *name)
{
	size_t i;

	for (i = 0; i < rf->n_probes; i++)
		if (strcmp(rf->probes[i].name, name) == 0)
			return &rf->probes[i];
	return NULL;
}

void result_free(struct result_file *rf)
{
	size_t i;

	if (!rf)
		return;
	free(rf->host.backend_params);
	free(rf->host.cpuid);
	for (i = 0; i < rf->n_probes; i++) {
		free(rf->probes[i].samples);
		free(rf->probes[i].trace);
		free(rf->probes[i].notes);
	}
	free(rf->probes);
	result_map_free(rf->map);
	free(rf->checks);
	free(rf->warnings);
	json_decref(rf->doc);
	free((char *)rf->name);
	free(rf);
}
