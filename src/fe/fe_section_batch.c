/* The sections of an element's integration points set in one law call per material group
 * (fe_section.h, fe_section_batch): the batch's arrays, the sections' views of them, its commit and
 * its trial. */
#include "fe_section.h"
#include "fe_section_passes.h"

#include <string.h>

/* The batch (fe_section.h): group g's states of all the sections (rows of n[g] doubles, or one
 * fiber after the other), the strains (padded by 3: the strains' last block of four), stresses
 * and tangents of its law's call. */
typedef struct fe_batch_group {
    hs_fiber_law law; /* (its params: the first section's) */
    size_t n;         /* fibers of the group over the sections */
    double *c, *t;
    double *strain, *stress, *tangent;
} fe_batch_group;

/* Section k's fibers of group g: the strains' pass writes blocks of four from the section's y (read
 * past the group into the next one's or the section's padding, fe_section_finalize), the last
 * block's lanes past n into the next section's piece (written after it) or the batch's padding
 * (kept at creation, so that the trial follows no pointer of the sections' groups). */
typedef struct fe_batch_piece {
    const double *y; /* the section's y of the group's fibers */
    double *strain;
    size_t n;
} fe_batch_piece;

/* A section's blocks of four fibers (its order, as sec_sums_2d takes them) whose stresses and
 * tangents lie one after the other in one law's outputs: read in place. A block across two groups
 * is gathered first into the batch's own four (gather). */
typedef struct fe_batch_run {
    const double *stress, *tangent;
    size_t nblk;
} fe_batch_run;

/* Section k's sums: its runs run[first .. first + nrun - 1], then its last m < 4 fibers (in place,
 * or gathered). */
typedef struct fe_batch_sums {
    const double *y, *A; /* the section's (its fibers' y and A, nfib of them) */
    int nfib;
    int first, nrun;
    const double *stress, *tangent;
    size_t m;
} fe_batch_sums;

/* One fiber's stress and tangent copied from the laws' outputs to a gathered block. */
typedef struct fe_batch_copy {
    double *stress, *tangent;
    const double *stress_in, *tangent_in;
} fe_batch_copy;

struct fe_section_batch {
    int nsec, ngrp;
    fe_section **sec;      /* (the pointers owned, not the sections) */
    size_t *off;           /* off[k * ngrp + g]: section k's first fiber in group g's arrays */
    fe_batch_piece *piece; /* piece[k * ngrp + g] */
    fe_batch_group *grp;
    fe_batch_sums *sums;   /* sums[k] */
    fe_batch_run *run;     /* the sections' runs */
    fe_batch_copy *gather; /* ngather copies */
    int ngather;
    double *gs, *gt; /* the gathered blocks' stresses and tangents (ngs of them taken) */
    size_t ngs;
    double *scratch;  /* the groups' strains, stresses, tangents and gs, gt when its own (else in
                         a model's fe_batch_scratch) */
    unsigned commits; /* the swaps of the arrays (fe_section.views) */
};

/* Whether section s can join a batch whose first section is s0 (the same groups). */
static int batch_fits(const fe_section *s0, const fe_section *s)
{
    if (!s->fibers_2d || s->batch || s->ngrp != s0->ngrp) return 0;
    for (int g = 0; g < s->ngrp; g++) {
        const hs_fiber_law *a = &s0->grp[g].law, *l = &s->grp[g].law;
        if (l->trial != a->trial || l->params_size != a->params_size || l->state_n != a->state_n ||
            l->rows != a->rows || memcmp(l->params, a->params, l->params_size) != 0)
            return 0;
    }
    return 1;
}

/* Where section k's group g starts in the batch's states `all`. */
static double *batch_view(const fe_section_batch *b, double *all, int k, int g)
{
    const fe_fiber_group *gr = &b->sec[k]->grp[g];
    const size_t off = b->off[(size_t)k * (size_t)b->ngrp + (size_t)g];
    return all + (gr->law.rows ? off : off * gr->law.state_n);
}

/* Every section's groups pointed at their views of the batch's committed and trial states. */
static void batch_point(fe_section_batch *b)
{
    for (int k = 0; k < b->nsec; k++)
        for (int g = 0; g < b->ngrp; g++) {
            fe_fiber_group *gr = &b->sec[k]->grp[g];
            gr->c = batch_view(b, b->grp[g].c, k, g);
            gr->t = batch_view(b, b->grp[g].t, k, g);
            gr->ld = gr->law.rows ? b->grp[g].n : (size_t)gr->n;
        }
}

/* Section k's group g's states `from` (its own layout, rows of n) into the batch's `all`. */
static void batch_take(fe_section_batch *b, double *all, int k, int g, const double *from)
{
    const fe_fiber_group *gr = &b->sec[k]->grp[g];
    double *to = batch_view(b, all, k, g);
    if (!gr->law.rows) {
        memcpy(to, from, fe_fiber_group_bytes(gr));
        return;
    }
    for (size_t r = 0; r < gr->law.state_n; r++)
        memcpy(to + r * b->grp[g].n, from + r * (size_t)gr->n, (size_t)gr->n * sizeof(double));
}

/* Where section k's fiber i (its order) lies in the laws' outputs: group g's arrays at *at. */
static int batch_where(const fe_section_batch *b, int k, int i, size_t *at)
{
    const fe_section *s = b->sec[k];
    int g = 0;
    while (i >= s->grp[g].first + s->grp[g].n) g++;
    *at = b->off[(size_t)k * (size_t)b->ngrp + (size_t)g] + (size_t)(i - s->grp[g].first);
    return g;
}

/* Fibers i .. i + n - 1 of section k: where their stresses and tangents are read from (*stress,
 * *tangent; in place, or copied to the next gathered block), the source's id in *src (g, or -1:
 * gathered). */
static void batch_block(fe_section_batch *b, int k, int i, int n, const double **stress,
                        const double **tangent, int *src)
{
    size_t at, last;
    const int g = batch_where(b, k, i, &at);
    if (batch_where(b, k, i + n - 1, &last) == g) {
        *stress = b->grp[g].stress + at;
        *tangent = b->grp[g].tangent + at;
        *src = g;
        return;
    }
    double *gs = b->gs + b->ngs, *gt = b->gt + b->ngs;
    for (int l = 0; l < n; l++) {
        const int gl = batch_where(b, k, i + l, &at);
        b->gather[b->ngather++] =
            (fe_batch_copy){gs + l, gt + l, b->grp[gl].stress + at, b->grp[gl].tangent + at};
    }
    b->ngs += 4;
    *stress = gs;
    *tangent = gt;
    *src = -1;
}

/* Section k's runs of blocks of four and its last nfib % 4 fibers (fe_batch_sums), after the runs
 * of sections 0 .. k - 1 and their gathered blocks. */
static void batch_plan_sums(fe_section_batch *b, int k)
{
    fe_batch_sums *sm = &b->sums[k];
    const int nf = b->sec[k]->nfib, first = k ? b->sums[k - 1].first + b->sums[k - 1].nrun : 0;
    *sm = (fe_batch_sums){.y = b->sec[k]->y, .A = b->sec[k]->A, .nfib = nf, .first = first};
    int last_src = -2;
    for (int i = 0; i + 4 <= nf; i += 4) {
        const double *st, *tg;
        int src;
        batch_block(b, k, i, 4, &st, &tg, &src);
        fe_batch_run *r = sm->nrun ? &b->run[first + sm->nrun - 1] : NULL;
        if (r && src == last_src && src >= 0 && r->stress + 4 * r->nblk == st)
            r->nblk++;
        else
            b->run[first + sm->nrun++] = (fe_batch_run){st, tg, 1};
        last_src = src;
    }
    sm->m = (size_t)(nf % 4);
    if (sm->m) {
        int src;
        batch_block(b, k, nf - nf % 4, nf % 4, &sm->stress, &sm->tangent, &src);
    }
}

void fe_section_batch_destroy(fe_section_batch **bp)
{
    if (!bp || !*bp) return;
    fe_section_batch *b = *bp;
    for (int g = 0; b->grp && g < b->ngrp; g++) {
        hs_free(b->grp[g].c);
        hs_free(b->grp[g].t);
    }
    hs_free(b->grp);
    hs_free(b->sums);
    hs_free(b->run);
    hs_free(b->gather);
    hs_free(b->scratch);
    hs_free(b->piece);
    hs_free(b->off);
    hs_free(b->sec);
    hs_free(b);
    *bp = NULL;
}

/* The shared scratch (fe_section.h): buffers of growing sizes, a batch taking the largest (the
 * last); one larger made when a batch needs more (a frame whose batches grow one after the other
 * keeps a few). */
enum { SCRATCH_MAX = 16 };
struct fe_batch_scratch {
    double *buf[SCRATCH_MAX];
    size_t cap[SCRATCH_MAX];
    int n;
};

int fe_batch_scratch_create(fe_batch_scratch **out)
{
    *out = hs_calloc(1, sizeof **out);
    return *out ? 0 : HS_ENOMEM;
}

void fe_batch_scratch_destroy(fe_batch_scratch **sp)
{
    if (!sp || !*sp) return;
    for (int i = 0; i < (*sp)->n; i++) hs_free((*sp)->buf[i]);
    hs_free(*sp);
    *sp = NULL;
}

/* n doubles of scratch for a batch: from s, or NULL (s full, or out of memory: the batch then
 * takes its own). */
static double *scratch_take(fe_batch_scratch *s, size_t n)
{
    if (!s) return NULL;
    if (s->n && s->cap[s->n - 1] >= n) return s->buf[s->n - 1];
    if (s->n == SCRATCH_MAX) return NULL;
    double *p = hs_malloc(n * sizeof *p);
    if (!p) return NULL;
    s->buf[s->n] = p;
    s->cap[s->n++] = n;
    return p;
}

/* x rounded up to a multiple of 4 doubles (each array of the scratch on 32 bytes of the block) */
static size_t round4(size_t x)
{
    return (x + 3) & ~(size_t)3;
}

int fe_section_batch_create(fe_section **secs, int nsec, fe_batch_scratch *scratch,
                            fe_section_batch **out)
{
    *out = NULL;
    if (nsec < 2 || !secs[0]->ngrp) return 0;
    for (int k = 0; k < nsec; k++)
        if (!batch_fits(secs[0], secs[k])) return 0;
    const int ngrp = secs[0]->ngrp;
    fe_section_batch *b = hs_calloc(1, sizeof *b);
    if (!b) return HS_ENOMEM;
    b->nsec = nsec;
    b->ngrp = ngrp;
    b->sec = hs_malloc((size_t)nsec * sizeof *b->sec);
    b->off = hs_malloc((size_t)(nsec * ngrp) * sizeof *b->off);
    b->piece = hs_malloc((size_t)(nsec * ngrp) * sizeof *b->piece);
    b->grp = hs_calloc((size_t)ngrp, sizeof *b->grp);
    const size_t blocks = (size_t)(nsec * ngrp) * 4; /* (at most ngrp gathered blocks a section) */
    b->sums = hs_malloc((size_t)nsec * sizeof *b->sums);
    b->run = hs_malloc((size_t)(nsec * 2 * ngrp) * sizeof *b->run);
    b->gather = hs_malloc(blocks * sizeof *b->gather);
    int rc =
        b->sec && b->off && b->piece && b->grp && b->sums && b->run && b->gather ? 0 : HS_ENOMEM;
    for (int g = 0; !rc && g < ngrp; g++) {
        fe_batch_group *bg = &b->grp[g];
        bg->law = secs[0]->grp[g].law;
        for (int k = 0; k < nsec; k++) {
            b->off[(size_t)k * (size_t)ngrp + (size_t)g] = bg->n;
            bg->n += (size_t)secs[k]->grp[g].n;
        }
        const size_t len = bg->n * secs[0]->grp[g].law.state_n;
        bg->c = hs_malloc(len * sizeof(double));
        bg->t = hs_malloc(len * sizeof(double));
        if (!bg->c || !bg->t) rc = HS_ENOMEM;
    }
    /* the scratch: each group's strains (padded by 3), stresses and tangents, then gs and gt */
    size_t need = 2 * blocks;
    for (int g = 0; !rc && g < ngrp; g++) need += round4(b->grp[g].n + 3) + 2 * round4(b->grp[g].n);
    double *p = rc ? NULL : scratch_take(scratch, need);
    if (!rc && !p) p = b->scratch = hs_malloc(need * sizeof *p);
    if (!p) rc = HS_ENOMEM;
    for (int g = 0; !rc && g < ngrp; g++) {
        fe_batch_group *bg = &b->grp[g];
        bg->strain = p;
        p += round4(bg->n + 3);
        bg->stress = p;
        p += round4(bg->n);
        bg->tangent = p;
        p += round4(bg->n);
    }
    if (!rc) {
        b->gs = p;
        b->gt = p + blocks;
    }
    if (rc) {
        fe_section_batch_destroy(&b);
        return rc;
    }
    /* the sections' states move into the batch (nothing fails from here) */
    for (int k = 0; k < nsec; k++) {
        fe_section *s = b->sec[k] = secs[k];
        s->views = 0;
        for (int g = 0; g < ngrp; g++) {
            batch_take(b, b->grp[g].c, k, g, s->grp[g].c);
            batch_take(b, b->grp[g].t, k, g, s->grp[g].t);
            hs_free(s->grp[g].c);
            hs_free(s->grp[g].t);
        }
        s->batch = b;
        for (int g = 0; g < ngrp; g++) {
            const fe_fiber_group *gr = &s->grp[g];
            const size_t off = b->off[(size_t)k * (size_t)ngrp + (size_t)g];
            b->piece[(size_t)k * (size_t)ngrp + (size_t)g] = (fe_batch_piece){
                .y = s->y + gr->first,
                .strain = b->grp[g].strain + off,
                .n = (size_t)gr->n,
            };
        }
        batch_plan_sums(b, k);
    }
    batch_point(b);
    *out = b;
    return 0;
}

/* A section's commit in a batch: the committed and trial arrays of all the sections swapped at
 * once (a section not set since its last commit, revert, reset or load first gets its trial
 * states equal to its committed ones), then none of them has a trial of its groups. */
void fe_section_batch_commit(fe_section_batch *b)
{
    int any = 0;
    for (int k = 0; k < b->nsec; k++) any |= b->sec[k]->grp_trial;
    if (!any) return;
    for (int k = 0; k < b->nsec; k++) {
        fe_section *s = b->sec[k];
        if (!s->grp_trial) {
            fe_section_batch_views(s);
            for (int g = 0; g < b->ngrp; g++)
                fe_fiber_group_copy(&s->grp[g], s->grp[g].t, s->grp[g].c);
        }
        s->grp_trial = 0;
    }
    for (int g = 0; g < b->ngrp; g++) {
        double *c = b->grp[g].c;
        b->grp[g].c = b->grp[g].t;
        b->grp[g].t = c;
    }
    b->commits++; /* (the sections' views follow when used: fe_section_batch_views) */
}

int fe_section_batch_swapped(const fe_section *s)
{
    return (int)((s->views ^ s->batch->commits) & 1u);
}

void fe_section_batch_views(fe_section *s)
{
    if (fe_section_batch_swapped(s))
        for (int g = 0; g < s->ngrp; g++) {
            fe_fiber_group *gr = &s->grp[g];
            double *c = gr->c;
            gr->c = gr->t;
            gr->t = c;
        }
    s->views = s->batch->commits;
}

/* A section's sums (sec_sums_2d) from its runs and last fibers sm (fe_batch_sums): the same
 * blocks of four fibers and the same last n % 4 as sec_sums_2d, read where the laws wrote them. */
SEC_INLINE void sec_sums_runs(const fe_batch_sums *sm, const fe_batch_run *run, double *sum)
{
    sec_acc a = {{0}, {0}, {0}, {0}, {0}};
    const double *y = sm->y, *A = sm->A;
    for (const fe_batch_run *r = run + sm->first, *end = r + sm->nrun; r < end; r++) {
        const double *sp = r->stress, *tp = r->tangent;
        for (size_t j = 0; j < r->nblk; j++, sp += 4, tp += 4, y += 4, A += 4)
            sec_sums_four(&a, y, A, sp, tp);
    }
    sec_sums_end(&a, sm->m, y, A, sm->stress, sm->tangent, sum);
}

/* The sections' strains (as sec_strains's, straight into the batch's arrays in blocks of four: a
 * batched section's own strain, stress and tangent arrays are not written), each group's law once
 * over all of them, the blocks across two groups gathered, then each section's sums from the
 * laws' outputs (sec_sums_runs). */
__attribute__((target_clones("avx2", "default"))) static void
sec_batch_trial(fe_section_batch *b, double (*e)[FE_SEC_MAX])
{
    const int ngrp = b->ngrp;
    const fe_batch_piece *pc = b->piece;
    for (int k = 0; k < b->nsec; k++) {
        const sec_v4 eps = {e[k][0], e[k][0], e[k][0], e[k][0]};
        const sec_v4 kz = {e[k][1], e[k][1], e[k][1], e[k][1]};
        for (int g = 0; g < ngrp; g++, pc++) {
            const double *y = pc->y;
            double *strain = pc->strain;
            for (size_t i = 0; i < pc->n; i += 4, y += 4, strain += 4) {
                sec_v4 yv;
                memcpy(&yv, y, sizeof yv);
                const sec_v4 st = eps - yv * kz;
                memcpy(strain, &st, sizeof st);
            }
        }
    }
    for (int g = 0; g < ngrp; g++) {
        const fe_batch_group *bg = &b->grp[g];
        bg->law.trial(bg->law.params, bg->n, bg->n, bg->strain, bg->c, bg->t, bg->stress,
                      bg->tangent);
    }
    for (int c = 0; c < b->ngather; c++) {
        const fe_batch_copy *cp = &b->gather[c];
        *cp->stress = *cp->stress_in;
        *cp->tangent = *cp->tangent_in;
    }
    for (int k = 0; k < b->nsec; k++) {
        fe_section *s = b->sec[k];
        double sum[5];
        sec_sums_runs(&b->sums[k], b->run, sum);
        s->e[0] = e[k][0];
        s->e[1] = e[k][1];
        s->grp_trial = 1;
        sec_set_sums_2d(s, sum);
    }
}

void fe_section_batch_set_trial(fe_section_batch *b, double (*e)[FE_SEC_MAX])
{
    sec_batch_trial(b, e); /* (a clone per instruction set: static, as clang builds them) */
}
