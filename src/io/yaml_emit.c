/* A node tree written back as YAML text (libyaml's emitter, block style): the effective test
 * definition after the command-line overrides, for the run's trace (docs/outputs.md). Scalars
 * written plain in the file stay plain (libyaml quotes them when it must); quoted ones are
 * double-quoted. */
#include "yaml_tree.h"

#include <string.h>
#include <yaml.h>

typedef struct emit_buf {
    char *text;
    size_t len, cap;
    int failed;
} emit_buf;

static int on_write(void *data, unsigned char *bytes, size_t size)
{
    emit_buf *b = data;
    if (b->len + size + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + size + 1) cap *= 2;
        char *grown = hs_realloc(b->text, cap);
        if (!grown) {
            b->failed = 1;
            return 0;
        }
        b->text = grown;
        b->cap = cap;
    }
    memcpy(b->text + b->len, bytes, size);
    b->len += size;
    b->text[b->len] = '\0';
    return 1;
}

static int emit_node(yaml_emitter_t *e, const hs_ynode *n)
{
    yaml_event_t ev;
    int ok;
    if (n->kind == HS_YNODE_SCALAR) {
        ok = yaml_scalar_event_initialize(
            &ev, NULL, NULL, (yaml_char_t *)n->text, (int)n->len, 1, 1,
            n->plain ? YAML_PLAIN_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
        return ok && yaml_emitter_emit(e, &ev);
    }
    const int map = n->kind == HS_YNODE_MAPPING;
    ok = map ? yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE)
             : yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
    if (!ok || !yaml_emitter_emit(e, &ev)) return 0;
    for (size_t i = 0; i < n->nitems; i++)
        if (!emit_node(e, n->items[i])) return 0;
    ok = map ? yaml_mapping_end_event_initialize(&ev) : yaml_sequence_end_event_initialize(&ev);
    return ok && yaml_emitter_emit(e, &ev);
}

int hs_ynode_emit(const hs_ynode *root, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    emit_buf b = {0};
    yaml_emitter_t e;
    if (!yaml_emitter_initialize(&e)) return HS_ENOMEM;
    yaml_emitter_set_output(&e, on_write, &b);
    yaml_emitter_set_unicode(&e, 1);
    yaml_emitter_set_width(&e, 100);
    yaml_event_t ev;
    int ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
             yaml_emitter_emit(&e, &ev) &&
             yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
             yaml_emitter_emit(&e, &ev);
    if (ok && root)
        ok = emit_node(&e, root);
    else if (ok) { /* an empty document */
        ok = yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)"", 0, 1, 1,
                                          YAML_PLAIN_SCALAR_STYLE) &&
             yaml_emitter_emit(&e, &ev);
    }
    ok = ok && yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
         yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev) &&
         yaml_emitter_flush(&e);
    yaml_emitter_delete(&e);
    if (!ok || b.failed) {
        hs_free(b.text);
        return b.failed ? HS_ENOMEM : HS_EINVAL;
    }
    *text = b.text;
    *len = b.len;
    return 0;
}
