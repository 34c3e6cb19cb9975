/*
 * report_path.c - the report's exit-path section: for every probe of a
 * profiled lane run, where one operation's instructions go (L1 kernel, L2
 * guest, L1 user space), the exits the emulator saw, and the kernel
 * functions that account for the most instructions per op, as a table and
 * as bars (a function the op runs less than its baseline gets a bar to the
 * left).
 */
#include <math.h>
#include <stdio.h>

#include "report/html.h"
#include "report/report_int.h"

#define PATH_TOP	12	/* functions shown per probe */
#define BAR_W		360	/* px of the largest bar */

static int has_paths(const struct result_file *rf)
{
	for (size_t i = 0; i < rf->n_probes; i++)
		if (rf->probes[i].exit_path.present)
			return 1;
	return 0;
}

static void path_bars(FILE *f, const struct exit_path *e, size_t n)
{
	double max = 0;
	unsigned int h = 16, w = BAR_W + 8;

	for (size_t i = 0; i < n; i++)
		max = fmax(max, fabs(exit_path_per_op(e, e->fns[i].insn)));
	if (max <= 0)
		return;
	fprintf(f, "<svg class=\"bars\" width=\"%u\" height=\"%zu\" role=\"img\" "
		   "aria-label=\"kernel instructions per op by function\">\n", 2 * w, n * h + 4);
	for (size_t i = 0; i < n; i++) {
		double v = exit_path_per_op(e, e->fns[i].insn);
		double len = fabs(v) / max * BAR_W;

		fprintf(f, "<rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"%u\" fill=\"%s\"><title>",
			v < 0 ? w - len : (double)w, i * h + 2, len, h - 4, v < 0 ? "#b0b0b0" : "#3b6ea5");
		html_escape(f, e->fns[i].name);
		fputs(": ", f);
		html_num(f, v);
		fputs(" insn/op</title></rect>\n", f);
	}
	fprintf(f, "<line x1=\"%u\" y1=\"0\" x2=\"%u\" y2=\"%zu\" stroke=\"#333\"/>\n</svg>\n", w, w, n * h + 4);
}

static void path_probe(FILE *f, const struct run_probe *p)
{
	const struct exit_path *e = &p->exit_path;
	size_t n = e->n_fns < PATH_TOP ? e->n_fns : PATH_TOP;

	fputs("<h4>", f);
	html_escape(f, p->name);
	fputs("</h4>\n<p class=\"meta\">per op: L1 kernel ", f);
	html_num(f, exit_path_per_op(e, e->kernel_insn));
	fputs(" insn, L2 guest ", f);
	html_num(f, exit_path_per_op(e, e->guest_insn));
	fputs(" insn, L1 user space ", f);
	html_num(f, exit_path_per_op(e, e->user_insn));
	fputs(" insn; exits", f);
	for (size_t i = 0; i < e->n_exits; i++) {
		fputs(i ? ", " : " ", f);
		html_escape(f, e->exits[i].reason);
		fputc(' ', f);
		html_num(f, exit_path_per_op(e, e->exits[i].exits));
	}
	if (!e->n_exits)
		fputs(" none", f);
	fprintf(f, " (over %lld operations)</p>\n", e->ops);
	path_bars(f, e, n);
	fputs("<table><thead><tr><th>function</th><th>insn/op</th><th>calls/op</th></tr></thead><tbody>\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr><td>", f);
		html_escape(f, e->fns[i].name);
		fputs("</td><td>", f);
		html_num(f, exit_path_per_op(e, e->fns[i].insn));
		fputs("</td><td>", f);
		html_num(f, exit_path_per_op(e, e->fns[i].calls));
		fputs("</td></tr>\n", f);
	}
	if (e->n_fns > n)
		fprintf(f, "<tr><td colspan=\"3\">%zu more functions in the JSON</td></tr>\n", e->n_fns - n);
	fputs("</tbody></table>\n", f);
}

int report_exit_paths(const struct report_ctx *r)
{
	FILE *f = r->f;
	int any = 0;

	for (size_t i = 0; i < r->n; i++)
		any |= has_paths(r->files[i]);
	if (!any)
		return 0;
	fputs("<section id=\"exit-path\"><h2>Exit paths</h2>\n"
	      "<p>Counted exactly by the lane's instrumented emulator: the op's batches minus "
	      "its baseline batches over the same operations. Functions are the lane kernel's "
	      "symbols; code inlined into a function counts as that function's.</p>\n", f);
	for (size_t i = 0; i < r->n; i++) {
		const struct result_file *rf = r->files[i];

		if (!has_paths(rf))
			continue;
		fprintf(f, "<h3><span class=\"swatch\" style=\"background:%s\"></span>%c: ",
			html_file_color(i), html_file_label(i));
		html_escape(f, rf->name);
		fputs("</h3>\n", f);
		for (size_t j = 0; j < rf->n_probes; j++)
			if (rf->probes[j].exit_path.present)
				path_probe(f, &rf->probes[j]);
	}
	fputs("</section>\n", f);
	return ferror(f) ? -1 : 0;
}
