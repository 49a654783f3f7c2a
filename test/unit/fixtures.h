/* ELF fixtures for the unit tests (see fixtures.c). */
#ifndef VP_TEST_FIXTURES_H
#define VP_TEST_FIXTURES_H

/* The fixture directory, built on first call. Skips the calling cmocka test
 * when a tool the build needs is missing (build.sh exits 77), fails it when
 * the build breaks. */
const char *vp_test_elf_fixtures(void);
/* DIR/name in a static buffer (overwritten by the next call). */
char *vp_test_fixture(const char *name);

#endif
