/* Terminal-safe text for names that come from files (see text.h). */
#include "text.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* no overlong forms, surrogates or code points past U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static size_t put(FILE *f, const char *s, size_t n)
{
	if (f && n)
		fwrite(s, 1, n, f);
	return n;
}

static size_t put_hex(FILE *f, unsigned char c)
{
	char b[5];

	b[0] = '\\';
	b[1] = 'x';
	b[2] = "0123456789abcdef"[c >> 4];
	b[3] = "0123456789abcdef"[c & 15];
	return put(f, b, 4);
}

size_t vp_text_write(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t out = 0, i = 0, run = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t len = 1;
		if (c >= 0x20 && c != 0x7f && c < 0x80) {
			run++;
			i++;
			continue;
		}
		if (c >= 0x80 && (len = utf8_len(p + i, n - i)) &&
		    !(c == 0xc2 && p[i + 1] < 0xa0)) {	/* U+0080-U+009F: C1 controls */
			run += len;
			i += len;
			continue;
		}
		out += put(f, s + i - run, run);
		run = 0;
		if (!len)
			len = 1;
		for (size_t k = 0; k < len; k++, i++) {
			c = p[i];
			out += c == '\n' ? put(f, "\\n", 2) : c == '\r' ? put(f, "\\r", 2)
			     : c == '\t' ? put(f, "\\t", 2) : put_hex(f, c);
		}
	}
	return out + put(f, s + i - run, run);
}

size_t vp_text_puts(FILE *f, const char *s)
{
	return s ? vp_text_write(f, s, strlen(s)) : 0;
}

void vp_text_pad(FILE *f, const char *s, int width)
{
	size_t n = vp_text_puts(f, s);

	for (; (int)n < width; n++)
		fputc(' ', f);
}

void vp_text_fit(FILE *f, const char *s, int width)
{
	size_t k = s ? strlen(s) : 0, n;

	while (k && vp_text_write(NULL, s, k) > (size_t)(width > 0 ? width : 0))
		k--;
	n = k ? vp_text_write(f, s, k) : 0;
	for (; (int)n < width; n++)
		fputc(' ', f);
}
