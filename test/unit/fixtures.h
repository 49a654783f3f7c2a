/* ELF fixtures for the unit tests (see fixtures.c). */
#ifndef VP_TEST_FIXTURES_H
#define VP_TEST_FIXTURES_H

/* The fixture directory, built on first call; NULL when it cannot be built
 * (no compiler): tests then skip. */
const char *vp_test_elf_fixtures(void);
/* DIR/name in a static buffer (overwritten by the next call), NULL as above. */
char *vp_test_fixture(const char *name);

#endif
