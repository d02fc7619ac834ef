/* Context "c-main": a C listing of statements, as the body of main(). */
#include <stdio.h>

int main(void) {
    /* LISTING */
    return 0;
}
