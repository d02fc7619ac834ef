/* Context "firmware": what the firmware around a listing provides. */
#include <stdint.h>

void start_sign_in(void);
void log_unrecognised(uint16_t module, int64_t code);
