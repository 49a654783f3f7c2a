/* A PNG chart written with libpng rather than cairo_surface_write_to_png,
 * which leaves libpng at its defaults: zlib level 6 and every filter tried
 * on every row. On charts, flat colours with text, that took 26-34 ms a
 * 1000-pixel chart and made them 65-84 KB; level 3 without a row filter
 * takes 7-8.5 ms and makes them 62-72 KB (2026-12-02: the bench's 40
 * charts spent 60% of their second in zlib and libpng). */
#include "render_internal.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>

static void put(png_structp png, png_bytep data, size_t n)
{
	if (vp_membuf_put(png_get_io_ptr(png), data, n) < 0)
		png_error(png, "out of memory");
}

static void flush(png_structp png)
{
	(void)png;
}

/* libpng reports through longjmp: nothing here lives across it but the
 * write and info structs, freed on both paths. */
int vp_png_write(cairo_surface_t *s, struct vp_membuf *b)
{
	png_structp png;
	png_infop info = NULL;
	const unsigned char *volatile row;
	int w, h, stride;

	cairo_surface_flush(s);
	row = cairo_image_surface_get_data(s);
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	stride = cairo_image_surface_get_stride(s);
	if (!row || cairo_image_surface_get_format(s) != CAIRO_FORMAT_RGB24)
		return -EINVAL;
	if (!(png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL)))
		return -ENOMEM;
	if (!(info = png_create_info_struct(png)) || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		b->oom = 1;
		return -ENOMEM;
	}
	png_set_write_fn(png, b, put, flush);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_compression_level(png, 3);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_write_info(png, info);
	/* cairo's RGB24 is a native-endian 32-bit xRGB word a pixel */
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
		png_set_filler(png, 0, PNG_FILLER_AFTER);
		png_set_bgr(png);
	} else {
		png_set_filler(png, 0, PNG_FILLER_BEFORE);
	}
	for (int y = 0; y < h; y++, row += stride)
		png_write_row(png, (png_const_bytep)row);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	return 0;
}
