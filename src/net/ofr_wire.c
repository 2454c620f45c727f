/* OpenFresco wire conventions shared by protocols A and B: the sizes vectors (checks, int32
 * little-endian codec), action codes held in doubles, and the disp|vel|accel|force|time packing
 * over the non-zero groups. */
#include "ofr_impl.h"

static const char *const group_name[HS_OFR_NGROUPS] = {"disp", "vel", "accel", "force", "time"};

int64_t hs_ofr_sizes_sum(const int32_t v[HS_OFR_NGROUPS])
{
    int64_t s = 0;
    for (int g = 0; g < HS_OFR_NGROUPS; g++) s += v[g];
    return s;
}

int hs_ofr_sizes_check(hs_ctx *ctx, const hs_ofr_sizes *s, int n, int32_t max_data)
{
    if (!s || n < 1) return hs_fail(ctx, HS_EINVAL, "OpenFresco sizes: no sizes or n < 1");
    const int32_t max = max_data > 0 ? max_data : HS_OFR_MAX_DATA;
    for (int k = 0; k < 2; k++) {
        const int32_t *v = k == 0 ? s->ctrl : s->daq;
        const char *which = k == 0 ? "sizeCtrl" : "sizeDaq";
        for (int g = 0; g < HS_OFR_NGROUPS; g++) {
            const int32_t x = v[g];
            if (x < 0)
                return hs_fail(ctx, HS_EPROTO, "OpenFresco sizes: %s %s = %d is negative", which,
                               group_name[g], (int)x);
            const int ok = g == HS_OFR_TIME                ? (x == 0 || x == 1)
                           : (k == 0 && g == HS_OFR_DISP)  ? x == n
                           : (k == 0 && g == HS_OFR_FORCE) ? x == 0
                                                           : (x == 0 || x == n);
            if (!ok)
                return hs_fail(ctx, HS_EPROTO,
                               "OpenFresco sizes: %s %s = %d, this site serves %d channels "
                               "(expected %s)",
                               which, group_name[g], (int)x, n,
                               g == HS_OFR_TIME                ? "0 or 1"
                               : (k == 0 && g == HS_OFR_DISP)  ? "n"
                               : (k == 0 && g == HS_OFR_FORCE) ? "0: no force control"
                                                               : "0 or n");
        }
    }
    const int64_t need = 1 + hs_ofr_sizes_sum(s->ctrl), daq = hs_ofr_sizes_sum(s->daq);
    if (s->data_size > max)
        return hs_fail(ctx, HS_EPROTO, "OpenFresco sizes: dataSize %d exceeds the bound %d",
                       (int)s->data_size, (int)max);
    if (s->data_size < need || s->data_size < daq)
        return hs_fail(ctx, HS_EPROTO,
                       "OpenFresco sizes: dataSize %d is smaller than the %lld values the "
                       "groups need",
                       (int)s->data_size, (long long)(need > daq ? need : daq));
    return 0;
}

void ofr_sizes_decode(const uint8_t *p, int32_t v[HS_OFR_NGROUPS])
{
    for (int g = 0; g < HS_OFR_NGROUPS; g++) v[g] = ofr_get_i32(p + 4 * g);
}

void ofr_sizes_encode(uint8_t *p, const int32_t v[HS_OFR_NGROUPS])
{
    for (int g = 0; g < HS_OFR_NGROUPS; g++) ofr_put_i32(p + 4 * g, v[g]);
}

int ofr_action(double v)
{
    if (!(v >= 0.0 && v <= 1000.0)) return -1;
    const int c = (int)v;
    return (double)c == v ? c : -1;
}

size_t ofr_pack(const int32_t sizes[HS_OFR_NGROUPS], double *v, const double *disp,
                const double *vel, const double *accel, const double *force, double time)
{
    const double *src[HS_OFR_NGROUPS] = {disp, vel, accel, force, &time};
    size_t k = 0;
    for (int g = 0; g < HS_OFR_NGROUPS; g++)
        for (int32_t i = 0; i < sizes[g]; i++) v[k++] = src[g] ? src[g][i] : 0.0;
    return k;
}

size_t hs_ofr_unpack(const int32_t sizes[HS_OFR_NGROUPS], const double *v, double *disp,
                     double *vel, double *accel, double *force, double *time)
{
    double *dst[HS_OFR_NGROUPS] = {disp, vel, accel, force, time};
    size_t k = 0;
    for (int g = 0; g < HS_OFR_NGROUPS; g++)
        for (int32_t i = 0; i < sizes[g]; i++, k++)
            if (dst[g]) dst[g][i] = v[k];
    return k;
}
