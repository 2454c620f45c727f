/* hysim keygen FILE: a new 32-byte key shared by a site and its coordinators (mode 0600; an
 * existing file is never overwritten). */
#include "cli.h"

#include "hysim/secure.h"

#include <stdio.h>

int hs_cli_keygen(int argc, char **argv)
{
    if (argc == 2 && hs_cli_is_help(argv[1])) {
        printf("usage: hysim keygen FILE\n  writes a new 32-byte key (mode 0600; an existing file "
               "is never overwritten)\n  shared by a site and its coordinators\n");
        return HS_EXIT_OK;
    }
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: hysim keygen FILE\n");
        return HS_EXIT_INPUT;
    }
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return HS_EXIT_FAILED;
    const int rc = hs_secure_key_generate(ctx, argv[1], NULL);
    if (rc)
        fprintf(stderr, "hysim keygen: %s\n", hs_ctx_message(ctx));
    else
        printf("hysim keygen: wrote a new key to %s (mode 0600); give it to the site and its "
               "coordinators only\n",
               argv[1]);
    hs_ctx_destroy(&ctx);
    return rc ? HS_EXIT_INPUT : HS_EXIT_OK;
}
