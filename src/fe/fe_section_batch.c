/* The sections of an element's integration points set in one law call per material group
 * (fe_section.h, fe_section_batch): the batch's arrays, the sections' views of them, its commit and
 * its trial. */
#include "fe_section.h"
#include "fe_section_passes.h"

#include <string.h>

/* The batch (fe_section.h): group g's states of all the sections (rows of n[g] doubles, or one
 * fiber after the other), the strains, stresses and tangents of its law's call. */
typedef struct fe_batch_group {
    hs_fiber_law law; /* (its params: the first section's) */
    size_t n;         /* fibers of the group over the sections */
    double *c, *t;
    double *strain, *stress, *tangent;
} fe_batch_group;

/* Section k's fibers of group g: where the trial reads and writes them (kept at creation, so that
 * the trial follows no pointer of the sections' groups) */
typedef struct fe_batch_piece {
    const double *y;                      /* the section's y of the group's fibers */
    double *strain;                       /* in the batch */
    const double *stress_in, *tangent_in; /* the law's, in the batch */
    size_t n;
} fe_batch_piece;

struct fe_section_batch {
    int nsec, ngrp;
    fe_section **sec;      /* (the pointers owned, not the sections) */
    size_t *off;           /* off[k * ngrp + g]: section k's first fiber in group g's arrays */
    fe_batch_piece *piece; /* piece[k * ngrp + g] */
    fe_batch_group *grp;
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

void fe_section_batch_destroy(fe_section_batch **bp)
{
    if (!bp || !*bp) return;
    fe_section_batch *b = *bp;
    for (int g = 0; b->grp && g < b->ngrp; g++) {
        hs_free(b->grp[g].c);
        hs_free(b->grp[g].t);
        hs_free(b->grp[g].strain);
        hs_free(b->grp[g].stress);
        hs_free(b->grp[g].tangent);
    }
    hs_free(b->grp);
    hs_free(b->piece);
    hs_free(b->off);
    hs_free(b->sec);
    hs_free(b);
    *bp = NULL;
}

int fe_section_batch_create(fe_section **secs, int nsec, fe_section_batch **out)
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
    int rc = b->sec && b->off && b->piece && b->grp ? 0 : HS_ENOMEM;
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
        bg->strain = hs_malloc(bg->n * sizeof(double));
        bg->stress = hs_malloc(bg->n * sizeof(double));
        bg->tangent = hs_malloc(bg->n * sizeof(double));
        if (!bg->c || !bg->t || !bg->strain || !bg->stress || !bg->tangent) rc = HS_ENOMEM;
    }
    if (rc) {
        fe_section_batch_destroy(&b);
        return rc;
    }
    /* the sections' states move into the batch (nothing fails from here) */
    for (int k = 0; k < nsec; k++) {
        fe_section *s = b->sec[k] = secs[k];
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
                .stress_in = b->grp[g].stress + off,
                .tangent_in = b->grp[g].tangent + off,
                .n = (size_t)gr->n,
            };
        }
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
        for (int g = 0; !s->grp_trial && g < b->ngrp; g++)
            fe_fiber_group_copy(&s->grp[g], s->grp[g].t, s->grp[g].c);
        s->grp_trial = 0;
    }
    for (int g = 0; g < b->ngrp; g++) {
        double *c = b->grp[g].c;
        b->grp[g].c = b->grp[g].t;
        b->grp[g].t = c;
    }
    batch_point(b);
}

/* The sums of section s (sec_sums_2d) from its groups' pieces pc (npc of them, in the section's
 * fiber order), the laws' stresses and tangents read where the laws wrote them: the same blocks of
 * four fibers and the same last n % 4 as sec_sums_2d, a block across two pieces gathered first. */
SEC_INLINE void sec_sums_pieces(const fe_section *s, const fe_batch_piece *pc, int npc, double *sum)
{
    sec_acc a = {{0}, {0}, {0}, {0}, {0}};
    double bs[4], bt[4];
    size_t i = 0, fill = 0; /* the block at fiber i, its first `fill` gathered */
    for (int g = 0; g < npc; g++) {
        const double *sp = pc[g].stress_in, *tp = pc[g].tangent_in;
        const size_t n = pc[g].n;
        size_t j = 0;
        if (fill) {
            for (; fill < 4 && j < n; j++, fill++) {
                bs[fill] = sp[j];
                bt[fill] = tp[j];
            }
            if (fill < 4) continue;
            sec_sums_four(&a, s->y + i, s->A + i, bs, bt);
            i += 4;
            fill = 0;
        }
        for (; j + 4 <= n; j += 4, i += 4) sec_sums_four(&a, s->y + i, s->A + i, sp + j, tp + j);
        for (; j < n; j++, fill++) {
            bs[fill] = sp[j];
            bt[fill] = tp[j];
        }
    }
    sec_sums_end(&a, fill, s->y + i, s->A + i, bs, bt, sum);
}

/* The sections' strains (as sec_trial_fibers_2d's, straight into the batch's arrays: a batched
 * section's own strain, stress and tangent arrays are not written), each group's law once over
 * all of them, then each section's sums from the laws' outputs (sec_sums_pieces). */
__attribute__((target_clones("avx2", "default"))) static void
sec_batch_trial(fe_section_batch *b, double (*e)[FE_SEC_MAX])
{
    const int ngrp = b->ngrp;
    const fe_batch_piece *pc = b->piece;
    for (int k = 0; k < b->nsec; k++)
        for (int g = 0; g < ngrp; g++, pc++)
            sec_strains(pc->n, pc->y, NULL, e[k][0], e[k][1], 0.0, pc->strain);
    for (int g = 0; g < ngrp; g++) {
        const fe_batch_group *bg = &b->grp[g];
        bg->law.trial(bg->law.params, bg->n, bg->n, bg->strain, bg->c, bg->t, bg->stress,
                      bg->tangent);
    }
    pc = b->piece;
    for (int k = 0; k < b->nsec; k++) {
        fe_section *s = b->sec[k];
        double sum[5];
        sec_sums_pieces(s, pc, ngrp, sum);
        pc += ngrp;
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
