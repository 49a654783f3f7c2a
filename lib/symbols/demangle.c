/* Demangling as Debian's perf 6.1 does it (libiberty's cplus_demangle with no
 * options: auto style, so legacy and v0 Rust first, then C++; perf's own
 * OCaml and leftover-Rust-hash passes), plus the FULL form vmprof keys rows
 * by: the same name with its parameter list, chosen so that
 * vp_symbol_display_len() always cuts it back to exactly the SHORT form. */
#include "demangle.h"

#include <ctype.h>
#include <errno.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/profile/profile.h"

/* ---- perf's OCaml demangler: "camlFoo__bar_12" -> "Foo.bar_12" ---- */

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

static char *ocaml_demangle(const char *s)
{
	size_t len, j = 0;
	char *out;

	if (strncmp(s, "caml", 4) || !isupper((unsigned char)s[4]))
		return NULL;
	len = strlen(s);
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (size_t i = 4; i < len;) {
		if (s[i] == '_' && s[i + 1] == '_') {
			out[j++] = '.';
			i += 2;
		} else if (s[i] == '$' && isxdigit((unsigned char)s[i + 1]) &&
			   isxdigit((unsigned char)s[i + 2])) {
			out[j++] = (char)(hexval(s[i + 1]) << 4 | hexval(s[i + 2]));
			i += 3;
		} else {
			out[j++] = s[i++];
		}
	}
	out[j] = '\0';
	return out;
}

/* ---- perf's Rust pass over what the C++ demangler left: "a::b::h<16 hex>" ---- */

#define RUST_HASH_LEN 19	/* "::h" + 16 hex digits */

static const struct {
	const char *seq;
	char c;
} rust_escapes[] = {
	{ "$C$", ',' },	  { "$SP$", '@' },  { "$BP$", '*' },  { "$RF$", '&' },	{ "$LT$", '<' },
	{ "$GT$", '>' },  { "$LP$", '(' },  { "$RP$", ')' },  { "$u20$", ' ' }, { "$u27$", '\'' },
	{ "$u5b$", '[' }, { "$u5d$", ']' }, { "$u7e$", '~' },
};

static size_t rust_escape(const char *s, char *c)
{
	for (size_t i = 0; i < sizeof(rust_escapes) / sizeof(rust_escapes[0]); i++) {
		size_t n = strlen(rust_escapes[i].seq);
		if (!strncmp(s, rust_escapes[i].seq, n)) {
			*c = rust_escapes[i].c;
			return n;
		}
	}
	return 0;
}

static int perf_rust_is_mangled(const char *s)
{
	size_t len = strlen(s), body;
	unsigned seen = 0;
	int distinct = 0;
	char c;

	if (len <= RUST_HASH_LEN)
		return 0;
	body = len - RUST_HASH_LEN;
	if (strncmp(s + body, "::h", 3))
		return 0;
	for (const char *p = s + body + 3; *p; p++) {
		if (*p >= '0' && *p <= '9')
			seen |= 1u << (*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			seen |= 1u << (*p - 'a' + 10);
		else
			return 0;
	}
	for (int i = 0; i < 16; i++)
		distinct += (seen >> i) & 1;
	if (distinct < 5 || distinct > 15)
		return 0;
	for (size_t i = 0; i < body;) {
		size_t n;
		if (s[i] == '$') {
			if (!(n = rust_escape(s + i, &c)))
				return 0;
			i += n;
		} else if (s[i] == '.' && !strncmp(s + i, "...", 3)) {
			return 0;
		} else if (isalnum((unsigned char)s[i]) || s[i] == '.' || s[i] == '_' || s[i] == ':') {
			i++;
		} else {
			return 0;
		}
	}
	return 1;
}

/* In place; stops (truncating) where perf's rust_demangle_sym gives up. */
static void perf_rust_demangle(char *s)
{
	const char *in = s, *end = s + strlen(s) - RUST_HASH_LEN;
	char *out = s;
	size_t n;
	char c;

	while (in < end) {
		if (*in == '$') {
			if (!(n = rust_escape(in, &c)))
				break;
			*out++ = c;
			in += n;
		} else if (*in == '_') {
			/* a component may start with '_' only to put an escape after it */
			if ((in == s || in[-1] == ':') && in[1] == '$')
				in++;
			else
				*out++ = *in++;
		} else if (*in == '.') {
			if (in[1] == '.') {
				*out++ = ':';
				*out++ = ':';
				in += 2;
			} else {
				*out++ = '-';
				in++;
			}
		} else if (isalnum((unsigned char)*in) || *in == ':') {
			*out++ = *in++;
		} else {
			break;
		}
	}
	*out = '\0';
}

static char *iberty(const char *name, int options)
{
	char *d = cplus_demangle(name, options);

	if (d && perf_rust_is_mangled(d))
		perf_rust_demangle(d);
	return d;
}

/* perf's demangle_sym() for a user-space dso when perf is not verbose. */
static char *perf_short(const char *name)
{
	char *d = iberty(name, DMGL_NO_OPTS);

	return d ? d : ocaml_demangle(name);
}

static int cuts_to(const char *full, const char *shrt, size_t slen)
{
	return vp_symbol_display_len(full) == slen && !memcmp(full, shrt, slen);
}

static char *with_parens(const char *s)
{
	size_t n = strlen(s);
	char *p = malloc(n + 3);

	if (p) {
		memcpy(p, s, n);
		memcpy(p + n, "()", 3);
	}
	return p;
}

/* The first FULL candidate that cuts back to shrt. libiberty's DMGL_RET_DROP
 * also eats return types inside template arguments and typeinfo names, and
 * some names demangle only without DMGL_PARAMS: those fall back step by step,
 * the last resort (shrt + "()") always qualifies. */
static char *pick_full(char *cand, const char *name, const char *shrt)
{
	size_t slen = strlen(shrt);
	char *c;

	if (cand && cuts_to(cand, shrt, slen))
		return cand;
	free(cand);
	if (name) {
		c = iberty(name, DMGL_PARAMS | DMGL_ANSI);
		if (c && cuts_to(c, shrt, slen))
			return c;
		free(c);
	}
	if (cuts_to(shrt, shrt, slen))
		return strdup(shrt);
	c = with_parens(shrt);
	if (c && cuts_to(c, shrt, slen))
		return c;
	free(c);
	return strdup(shrt);	/* not reached for any name tried so far */
}

char *vp_demangle_short(const char *name)
{
	return name ? perf_short(name) : NULL;
}

char *vp_demangle_full(const char *name, const char *shrt)
{
	return pick_full(iberty(name, DMGL_PARAMS | DMGL_ANSI | DMGL_RET_DROP), name, shrt);
}

int vp_demangle_pair(const char *name, char **shrt, char **full)
{
	*full = NULL;
	*shrt = vp_demangle_short(name);
	if (!*shrt)
		return 0;	/* not mangled: both forms are the name itself */
	*full = vp_demangle_full(name, *shrt);
	if (!*full) {
		free(*shrt);
		*shrt = NULL;
		return -ENOMEM;
	}
	return 0;
}

int vp_demangle_plt(const char *shrt, const char *full, const char *base, size_t blen,
		    char **pshort, char **pfull)
{
	char buf[1024];
	size_t d, flen;
	char *cand;

	*pshort = *pfull = NULL;
	/* perf: snprintf(sympltname, 1024, "%s@plt", demangled ?: elf_name) */
	snprintf(buf, sizeof(buf), "%.*s@plt", shrt ? (int)strlen(shrt) : (int)blen,
		 shrt ? shrt : base);
	*pshort = strdup(buf);
	if (!*pshort)
		return -ENOMEM;
	/* FULL puts "@plt" where the display cut falls: "operator new@plt(unsigned long)" */
	if (!full) {
		full = shrt;
		if (!full) {
			cand = strndup(base, blen);
			if (!cand)
				goto nomem;
			full = cand;
		} else {
			cand = NULL;
		}
	} else {
		cand = NULL;
	}
	d = vp_symbol_display_len(full);
	flen = strlen(full);
	char *c = malloc(flen + 5);
	if (c) {
		memcpy(c, full, d);
		memcpy(c + d, "@plt", 4);
		memcpy(c + d + 4, full + d, flen - d + 1);
	}
	free(cand);
	if (!c)
		goto nomem;
	*pfull = pick_full(c, NULL, *pshort);
	if (!*pfull)
		goto nomem;
	return 0;
nomem:
	free(*pshort);
	*pshort = NULL;
	return -ENOMEM;
}

char *vp_demangle(const char *name, enum vp_demangle_mode m)
{
	char *s, *f;

	if (m == VP_DEMANGLE_NONE || !name)
		return NULL;
	if (vp_demangle_pair(name, &s, &f) < 0)
		return NULL;
	if (m == VP_DEMANGLE_SHORT) {
		free(f);
		return s;
	}
	free(s);
	return f;
}
