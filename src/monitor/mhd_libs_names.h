/* Included after <microhttpd.h> by monitor_server.c: each name below becomes its entry in the
 * table that hs_mhd_require fills (mhd_libs.h). */
#ifndef HS_MHD_LIBS_NAMES_H
#define HS_MHD_LIBS_NAMES_H

#include "monitor/mhd_libs.h"

#define MHD_start_daemon                  (hs_mhd.MHD_start_daemon)
#define MHD_get_daemon_info               (hs_mhd.MHD_get_daemon_info)
#define MHD_stop_daemon                   (hs_mhd.MHD_stop_daemon)
#define MHD_lookup_connection_value       (hs_mhd.MHD_lookup_connection_value)
#define MHD_create_response_from_buffer   (hs_mhd.MHD_create_response_from_buffer)
#define MHD_create_response_from_callback (hs_mhd.MHD_create_response_from_callback)
#define MHD_add_response_header           (hs_mhd.MHD_add_response_header)
#define MHD_queue_response                (hs_mhd.MHD_queue_response)
#define MHD_destroy_response              (hs_mhd.MHD_destroy_response)

#endif
