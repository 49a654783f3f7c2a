/* Names from files (symbols, objects, commands, event names, metadata) on a
 * terminal: a guest controls those bytes, so control characters never reach
 * the terminal raw and a name never breaks a table's line. */
#ifndef VP_TEXT_H
#define VP_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Write the first n bytes of s with C0 and C1 control characters, DEL and
 * bytes that are not UTF-8 escaped (\n \r \t \xNN); valid UTF-8 and every
 * other byte (< > & " ' included: plain text) as they are. Returns the bytes
 * written; with f NULL writes nothing and returns the length it would have. */
size_t vp_text_write(FILE *f, const char *s, size_t n);
/* The same for a NUL-terminated string (NULL writes nothing). */
size_t vp_text_puts(FILE *f, const char *s);
/* vp_text_puts, then spaces up to width. */
void vp_text_pad(FILE *f, const char *s, int width);
/* As much of s as fits width once escaped, then spaces up to width. */
void vp_text_fit(FILE *f, const char *s, int width);

#endif
