/* export_text.c — pages as text: the FAQ tag-page dump format that the
 * faq-tags importer reads (txt), and Markdown for people (md).
 *
 * txt, page by page (importers/faq_tags.c reads it back):
 *
 *   Speed (Fast/Slow)                     the page's tag
 *                                         (blank lines between blocks)
 *   Frequently Asked Questions            a section, when it changes
 *   Aspects                               a category, when it changes
 *   • With the aspect Wind …?             the question
 *     Changed answer: Yes, you can …      the answer, two blanks in
 *     (Discussion elsewhere)  Tags: Speed (Fast/Slow), …, 2 more...
 */
#include "export.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char BULLET[] = "\xE2\x80\xA2";     /* • */

/* s on one line: line breaks become blanks. */
static void one_line(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

/* Every line of text indented by two blanks; blank lines stay empty. */
static void answer_lines(FILE *f, const char *text, const char *first)
{
	fputs("  ", f);
	fputs(first, f);
	bool start = false;
	for (const char *s = text; *s; s++) {
		if (*s == '\n') {
			fputc('\n', f);
			start = true;
			continue;
		}
		if (start)
			fputs("  ", f);
		start = false;
		fputc(*s, f);
	}
	fputc('\n', f);
}

static void txt_entry(FILE *f, const struct rl_ruling *r)
{
	fprintf(f, "%s ", BULLET);
	one_line(f, r->title);
	fputc('\n', f);
	if (r->changed)
		answer_lines(f, r->text, *r->text ? "Changed answer: "
		                                  : "Changed answer:");
	else if (*r->text)
		answer_lines(f, r->text, "");
	fputs("  ", f);
	bool discussed = false;
	for (size_t k = 0; k < r->nrefs; k++)
		if (strcmp(r->refs[k].kind, "discussion") == 0) {
			fputs("(Discussion elsewhere) ", f);
			discussed = true;
		}
	fputs(discussed ? " Tags: " : "Tags: ", f);
	for (size_t k = 0; k < r->ntags; k++) {
		if (k)
			fputs(", ", f);
		one_line(f, r->tags[k]);
	}
	if (r->hidden_tags >= 0)
		fprintf(f, "%s%d more...", r->ntags ? ", " : "", r->hidden_tags);
	fputc('\n', f);
}

/* One tag page; *mixed is set when its rulings are in several
 * languages. */
static int txt_page(struct export_job *job, const struct export_page *p,
                    bool *mixed)
{
	*mixed = false;
	for (size_t k = 1; k < p->n && !*mixed; k++)
		*mixed = strcmp(job->sel.v[p->v[k]].lang, job->sel.v[p->v[0]].lang);
	struct export_item *items;
	int status = export_order(job, p, &items);
	if (status)
		return status;
	struct export_out o;
	if ((status = export_open(&o)) != 0) {
		free(items);
		return status;
	}
	one_line(o.f, p->title);
	fputc('\n', o.f);
	for (size_t k = 0; k < p->n && !status; k++) {
		const struct export_item *it = &items[k];
		if (it->new_section) {
			fputc('\n', o.f);
			one_line(o.f, it->section);
			fputc('\n', o.f);
		}
		if (it->new_category) {
			fputc('\n', o.f);
			one_line(o.f, it->category);
			fputc('\n', o.f);
		}
		if (it->new_section || it->new_category || k == 0)
			fputc('\n', o.f);
		const struct rl_ruling *r = export_ruling(job, it->i);
		if (!r)
			status = EXIT_SOFTWARE;
		else
			txt_entry(o.f, r);
	}
	free(items);
	if (status) {
		export_discard(&o);
		return status;
	}
	return export_commit(job, &o, job->tree ? p->file : NULL);
}

int export_txt(struct export_job *job)
{
	int status = 0;
	size_t skipped = 0, mixed = 0;
	for (size_t k = 0; k < job->npages && !status; k++) {
		bool m = false;
		if (!job->pages[k].title)
			skipped = job->pages[k].n;   /* a tag page needs a tag */
		else
			status = txt_page(job, &job->pages[k], &m);
		mixed += m;
	}
	if (!status && skipped)
		warning("%zu ruling%s with no tag %s on no tag page", skipped,
		        skipped == 1 ? "" : "s", skipped == 1 ? "is" : "are");
	/* the importer gives a page one language */
	if (!status && mixed)
		warning("%zu page%s hold%s rulings in several languages: importing "
		        "%s gives them one language (--lang exports one)", mixed,
		        mixed == 1 ? "" : "s", mixed == 1 ? "s" : "",
		        mixed == 1 ? "it" : "one");
	return status;
}

/* ---- Markdown ------------------------------------------------------------ */

/* Text with every character that Markdown could read as markup escaped:
 * inline markup anywhere, block markup at the start of a line. */
static void md_text(FILE *f, const char *s, size_t n)
{
	bool line_start = true;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (ch == '\n' || ch == '\r') {
			fputc(' ', f);
			continue;
		}
		if (line_start) {
			/* "1." or "1)" would start a list */
			size_t d = i;
			while (d < n && s[d] >= '0' && s[d] <= '9')
				d++;
			if (d > i && d < n && (s[d] == '.' || s[d] == ')')) {
				fwrite(s + i, 1, d - i, f);
				fputc('\\', f);
				fputc(s[d], f);
				i = d;
				line_start = false;
				continue;
			}
			if (strchr("#+-=>", ch) && ch)
				fputc('\\', f);
			line_start = false;
		}
		if (strchr("\\`*_[]<>|~&", ch) && ch)
			fputc('\\', f);
		fputc(ch, f);
	}
}

static void md_str(FILE *f, const char *s)
{
	md_text(f, s, strlen(s));
}

/* The answer: paragraphs, and "• " lines as list items. */
static void md_answer(FILE *f, const char *text)
{
	const char *s = text;
	bool in_list = false, in_para = false;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		size_t b = 0;
		while (b < n && s[b] == ' ')
			b++;
		bool blank = b == n;
		bool bullet = !blank && n - b >= sizeof BULLET - 1 &&
		              memcmp(s + b, BULLET, sizeof BULLET - 1) == 0;
		if (blank) {
			if (in_para)
				fputs("\n\n", f);
			else if (in_list)
				fputc('\n', f);
			in_list = in_para = false;
		} else if (bullet) {
			if (in_para)
				fputs("\n\n", f);
			in_para = false;
			size_t t = b + sizeof BULLET - 1;
			while (t < n && s[t] == ' ')
				t++;
			fputs(b > 0 && in_list ? "    - " : "- ", f);
			md_text(f, s + t, n - t);
			fputc('\n', f);
			in_list = true;
		} else {
			if (in_list)
				fputc('\n', f);
			else if (in_para)
				fputs("  \n", f);     /* a hard line break */
			in_list = false;
			md_text(f, s + b, n - b);
			in_para = true;
		}
		s += n + (nl != NULL);
	}
	if (in_para)
		fputc('\n', f);
}

static void md_link(struct export_job *job, FILE *f, const char *tag)
{
	const struct export_page *p = job->tree ? export_page_of(job, tag) : NULL;
	if (p) {
		fputc('[', f);
		md_str(f, tag);
		fprintf(f, "](%s)", p->file);     /* a slug: safe in a link */
	} else {
		md_str(f, tag);
	}
}

static void md_entry(struct export_job *job, FILE *f, const struct rl_ruling *r)
{
	fputs("#### ", f);
	md_str(f, r->title);
	fputs("\n\n", f);
	if (r->changed)
		fputs("**Changed answer.**\n\n", f);
	md_answer(f, r->text);
	fputc('\n', f);
	if (r->errata) {
		fputs("*Errata:* ", f);
		const char *parts[] = { r->errata->product, r->errata->printing,
		                        r->errata->document, r->errata->page };
		bool any = false;
		for (size_t k = 0; k < 4; k++)
			if (parts[k]) {
				fputs(any ? (k == 3 ? ", p. " : ", ") : k == 3 ? "p. " : "", f);
				md_str(f, parts[k]);
				any = true;
			}
		fputs("\n\n", f);
	}
	size_t discussions = 0;
	for (size_t k = 0; k < r->nrefs; k++)
		discussions += strcmp(r->refs[k].kind, "discussion") == 0;
	if (discussions)
		fputs("*(Discussion elsewhere)*  \n", f);
	fputs("*Tags:* ", f);
	for (size_t k = 0; k < r->ntags; k++) {
		if (k)
			fputs(", ", f);
		md_link(job, f, r->tags[k]);
	}
	if (r->hidden_tags > 0)
		fprintf(f, "%s%d more", r->ntags ? ", and " : "", r->hidden_tags);
	fputs("\n\n", f);
}

static int md_page(struct export_job *job, const struct export_page *p)
{
	struct export_item *items;
	int status = export_order(job, p, &items);
	if (status)
		return status;
	struct export_out o;
	if ((status = export_open(&o)) != 0) {
		free(items);
		return status;
	}
	fputs("# ", o.f);
	if (p->title)
		md_str(o.f, p->title);
	else
		fputs("Rulings with no tag", o.f);
	fputs("\n\n", o.f);
	for (size_t k = 0; k < p->n && !status; k++) {
		const struct export_item *it = &items[k];
		if (it->new_section) {
			fputs("## ", o.f);
			md_str(o.f, it->section);
			fputs("\n\n", o.f);
		}
		if (it->new_category) {
			fputs("### ", o.f);
			md_str(o.f, it->category);
			fputs("\n\n", o.f);
		}
		const struct rl_ruling *r = export_ruling(job, it->i);
		if (!r)
			status = EXIT_SOFTWARE;
		else
			md_entry(job, o.f, r);
	}
	free(items);
	if (status) {
		export_discard(&o);
		return status;
	}
	return export_commit(job, &o, job->tree ? p->file : NULL);
}

int export_md(struct export_job *job)
{
	int status = 0;
	for (size_t k = 0; k < job->npages && !status; k++)
		status = md_page(job, &job->pages[k]);
	return status;
}
