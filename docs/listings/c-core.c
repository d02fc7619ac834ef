/* Context "c-core": a C listing of statements that use the core's header, as the body of main(). */
#include <CErrCore.h>
#include <stdio.h>

int main(void) {
    /* LISTING */
    return 0;
}
