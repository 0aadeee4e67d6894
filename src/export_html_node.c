/* export_html_node.c — the nodes of an HTML page (elements, attributes,
 * text; a failure recorded once in the page) and its interface words in
 * the page's language (the message catalog, src/msg.h): the helpers every
 * page of export_html*.c and export_changes.c builds with. */
#include "export_html.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- building nodes ---------------------------------------------------- */

int html_fail(struct page_doc *d, int rc)
{
	if (rc && !d->rc)
		d->rc = rc;
	return rc;
}

xmlNodePtr html_el(struct page_doc *d, xmlNodePtr parent, const char *name,
                   const char *text)
{
	xmlNodePtr n = parent ? xmlNewTextChild(parent, NULL, BAD_CAST name,
	                                        BAD_CAST text) : NULL;
	if (!n)
		html_fail(d, RL_ENOMEM);
	return n;
}

void html_attr(struct page_doc *d, xmlNodePtr n, const char *name,
               const char *value)
{
	if (n && !xmlNewProp(n, BAD_CAST name, BAD_CAST value))
		html_fail(d, RL_ENOMEM);
}

void html_text_len(struct page_doc *d, xmlNodePtr parent, const char *s,
                   size_t n)
{
	xmlNodePtr t = parent ? xmlNewTextLen(BAD_CAST s, (int)n) : NULL;
	if (!t || !xmlAddChild(parent, t)) {
		xmlFreeNode(t);
		html_fail(d, RL_ENOMEM);
	}
}

void html_text(struct page_doc *d, xmlNodePtr parent, const char *s)
{
	html_text_len(d, parent, s, strlen(s));
}

xmlNodePtr html_link(struct page_doc *d, xmlNodePtr parent, const char *href,
                     const char *label)
{
	xmlNodePtr a = html_el(d, parent, "a", label);
	html_attr(d, a, "href", href);
	return a;
}

/* ---- interface words ----------------------------------------------------- */

const char *html_msg(struct page_doc *d, enum rl_msg id)
{
	return msg_get(d->ui, id);
}

char *html_count(struct page_doc *d, enum rl_msg id, size_t n)
{
	char *s = msg_count(d->ui, id, n);
	if (!s)
		html_fail(d, RL_ENOMEM);
	return s;
}

char *html_two_counts(struct page_doc *d, enum rl_msg a, size_t na,
                      enum rl_msg b, size_t nb)
{
	/* a zero beside a count is left out: a rulebook of no glossary is
	 * "20 rules", not "20 rules, 0 glossary entries" (a glossary,
	 * "212 glossary entries", not "0 rules, 212 ...") */
	char *sa = na || !nb ? html_count(d, a, na) : NULL;
	char *sb = nb ? html_count(d, b, nb) : NULL;
	struct rl_buf buf = {0};
	rl_buf_addf(&buf, "%s%s%s", sa ? sa : "", sa && sb ? ", " : "",
	            sb ? sb : "");
	char *s = rl_buf_take(&buf);
	if (!s)
		html_fail(d, RL_ENOMEM);
	free(sa);
	free(sb);
	return s;
}

void html_ui_mark(struct page_doc *d, xmlNodePtr node)
{
	if (node && msg_find(d->ctx) != d->ui)
		html_attr(d, node, "lang", d->ui->code);
}

xmlNodePtr html_ui_el(struct page_doc *d, xmlNodePtr parent, const char *name,
                      const char *text)
{
	xmlNodePtr n = html_el(d, parent, name, text);
	html_ui_mark(d, n);
	return n;
}

void html_ui_text(struct page_doc *d, xmlNodePtr parent, const char *s)
{
	if (msg_find(d->ctx) != d->ui)
		html_ui_el(d, parent, "span", s);
	else
		html_text(d, parent, s);
}

const char *html_majority_lang(const struct rl_export *x, const size_t *v,
                               size_t n, const char *game)
{
	return export_majority_lang(x, v, n, game);
}
