/* gpupool._cyaml: libyaml's event stream straight into plain dicts and lists (lint's fastest reader).
 *
 * PyYAML's C loader makes a Python node object and two mark objects for every YAML node, and gpupool then
 * builds its values from those nodes: three quarters of `gpupool lint`'s time. This module builds the
 * values directly from libyaml's events, with the same meaning as gpupool.yamlio, and gives up (returns
 * None, so that the Python path reads the file and reports what is wrong) on everything else:
 *
 *   - plain scalars are resolved by a Python callback (PyYAML's YAML 1.1 rules, as gpupool.yamlio applies
 *     them), memoised in a dict the caller owns: manifests repeat their scalars, so nearly all are lookups;
 *     the callback returns the `unsupported` sentinel for what only yamlio handles (merge keys);
 *   - quoted and block scalars are strings;
 *   - anchors, aliases, tags, directives, collection keys, duplicate keys, nesting deeper than max_depth,
 *     a document of more than max_nodes nodes (yamlio refuses it) and any syntax error: None.
 *
 * load(text, resolve, cache, unsupported, max_depth, max_cached, max_nodes) -> None or a list with, per
 * document,
 * (data, first_node_line, start_line, end_line): 1-based line of the root node, and 0-based lines of the
 * document's first and last event (where the caller re-reads the document for positions, on demand).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <yaml.h>

#define STACK_MAX 1024

typedef struct {
    PyObject *container; /* dict or list (new reference) */
    PyObject *key;       /* pending mapping key (new reference) or NULL */
    int is_map;
} frame_t;

typedef struct {
    PyObject *resolve;
    PyObject *cache;
    PyObject *unsupported;
    Py_ssize_t max_cached;
} ctx_t;

/* The value of a scalar event (new reference); NULL with no exception set: unsupported; NULL with an
 * exception: error. */
static PyObject *scalar_value(ctx_t *ctx, yaml_event_t *ev) {
    PyObject *text = PyUnicode_DecodeUTF8((const char *)ev->data.scalar.value,
                                          (Py_ssize_t)ev->data.scalar.length, "strict");
    if (text == NULL)
        return NULL;
    if (!ev->data.scalar.plain_implicit || ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return text; /* quoted, literal or folded: a string */
    PyObject *hit = PyDict_GetItemWithError(ctx->cache, text);
    if (hit != NULL) {
        Py_INCREF(hit);
        Py_DECREF(text);
        return hit;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(text);
        return NULL;
    }
    PyObject *value = PyObject_CallOneArg(ctx->resolve, text);
    if (value == NULL) {
        Py_DECREF(text);
        return NULL;
    }
    if (value == ctx->unsupported) {
        Py_DECREF(value);
        Py_DECREF(text);
        return NULL;
    }
    if (PyDict_GET_SIZE(ctx->cache) < ctx->max_cached && PyUnicode_GET_LENGTH(text) < 128) {
        if (PyDict_SetItem(ctx->cache, text, value) < 0) {
            Py_DECREF(value);
            Py_DECREF(text);
            return NULL;
        }
    }
    Py_DECREF(text);
    return value;
}

/* Put `value` (stolen) into the innermost container, or make it the root. 1: ok, 0: unsupported (a
 * collection as a key, a duplicate key), -1: error. */
static int attach(frame_t *stack, int depth, PyObject **root, PyObject *value, int is_scalar) {
    if (depth == 0) {
        *root = value;
        return 1;
    }
    frame_t *top = &stack[depth - 1];
    if (!top->is_map) {
        int rc = PyList_Append(top->container, value);
        Py_DECREF(value);
        return rc < 0 ? -1 : 1;
    }
    if (top->key == NULL) {
        if (!is_scalar) {
            Py_DECREF(value);
            return 0;
        }
        int has = PyDict_Contains(top->container, value);
        if (has != 0) { /* a duplicate key (or an unhashable one): yamlio reports it */
            Py_DECREF(value);
            if (has < 0)
                PyErr_Clear();
            return 0;
        }
        top->key = value;
        return 1;
    }
    int rc = PyDict_SetItem(top->container, top->key, value);
    Py_DECREF(value);
    Py_CLEAR(top->key);
    return rc < 0 ? -1 : 1;
}

static PyObject *load(PyObject *self, PyObject *args) {
    PyObject *text;
    ctx_t ctx;
    int max_depth;
    Py_ssize_t max_nodes, nodes = 0;
    if (!PyArg_ParseTuple(args, "UOO!Oinn", &text, &ctx.resolve, &PyDict_Type, &ctx.cache, &ctx.unsupported,
                          &max_depth, &ctx.max_cached, &max_nodes))
        return NULL;
    if (max_depth > STACK_MAX)
        max_depth = STACK_MAX;
    Py_ssize_t size;
    const char *buf = PyUnicode_AsUTF8AndSize(text, &size);
    if (buf == NULL)
        return NULL;

    yaml_parser_t parser;
    yaml_event_t ev;
    frame_t *stack = PyMem_Calloc(STACK_MAX, sizeof(frame_t));
    if (stack == NULL)
        return PyErr_NoMemory();
    if (!yaml_parser_initialize(&parser)) {
        PyMem_Free(stack);
        return PyErr_NoMemory();
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, (size_t)size);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);

    PyObject *docs = PyList_New(0);
    PyObject *root = NULL;
    int depth = 0, ok = 1, done = 0;
    size_t doc_start = 0, node_line = 0;
    int have_node = 0;
    if (docs == NULL)
        ok = -1;

    while (ok == 1 && !done) {
        if (!yaml_parser_parse(&parser, &ev)) {
            ok = 0; /* a syntax error: yamlio reports it */
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_START_EVENT:
        case YAML_NO_EVENT:
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (ev.data.document_start.version_directive != NULL ||
                ev.data.document_start.tag_directives.start != ev.data.document_start.tag_directives.end) {
                ok = 0;
                break;
            }
            doc_start = ev.start_mark.line;
            have_node = 0;
            nodes = 0;
            root = NULL;
            break;
        case YAML_DOCUMENT_END_EVENT: {
            PyObject *data = root ? root : Py_NewRef(Py_None);
            root = NULL;
            PyObject *item = Py_BuildValue("(Nnnn)", data, (Py_ssize_t)(have_node ? node_line + 1 : doc_start + 1),
                                           (Py_ssize_t)doc_start, (Py_ssize_t)ev.end_mark.line);
            if (item == NULL || PyList_Append(docs, item) < 0)
                ok = -1;
            Py_XDECREF(item);
            break;
        }
        case YAML_ALIAS_EVENT:
            ok = 0;
            break;
        case YAML_SCALAR_EVENT: {
            if (ev.data.scalar.anchor != NULL || ev.data.scalar.tag != NULL || ++nodes > max_nodes) {
                ok = 0;
                break;
            }
            if (!have_node) {
                have_node = 1;
                node_line = ev.start_mark.line;
            }
            PyObject *value = scalar_value(&ctx, &ev);
            if (value == NULL) {
                ok = PyErr_Occurred() ? -1 : 0;
                break;
            }
            ok = attach(stack, depth, &root, value, 1);
            break;
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            int is_map = ev.type == YAML_MAPPING_START_EVENT;
            if ((is_map ? (ev.data.mapping_start.anchor != NULL || ev.data.mapping_start.tag != NULL)
                        : (ev.data.sequence_start.anchor != NULL || ev.data.sequence_start.tag != NULL)) ||
                depth >= max_depth || ++nodes > max_nodes) {
                ok = 0;
                break;
            }
            if (!have_node) {
                have_node = 1;
                node_line = ev.start_mark.line;
            }
            PyObject *container = is_map ? PyDict_New() : PyList_New(0);
            if (container == NULL) {
                ok = -1;
                break;
            }
            Py_INCREF(container); /* one reference for the parent (attach steals it), one for the stack */
            ok = attach(stack, depth, &root, container, 0);
            if (ok != 1) {
                Py_DECREF(container);
                break;
            }
            stack[depth].container = container;
            stack[depth].key = NULL;
            stack[depth].is_map = is_map;
            depth++;
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            if (depth > 0) {
                depth--;
                Py_CLEAR(stack[depth].container);
                Py_CLEAR(stack[depth].key);
            }
            break;
        }
        yaml_event_delete(&ev);
    }

    while (depth > 0) {
        depth--;
        Py_CLEAR(stack[depth].container);
        Py_CLEAR(stack[depth].key);
    }
    /* root is owned by `docs` once its document ended; otherwise (an early stop) it is ours */
    if (ok != 1)
        Py_XDECREF(root);
    yaml_parser_delete(&parser);
    PyMem_Free(stack);
    if (ok == 1)
        return docs;
    Py_XDECREF(docs);
    if (ok < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* locate(text, path, resolve, cache, unsupported, max_cached) -> (line, column), None or `unsupported`.
 *
 * What gpupool.yamlio.locate answers for `path` (a tuple of keys and list indexes) in the first document of
 * `text`, found from libyaml's events without building anything: the 1-based position of the deepest key
 * or item of `path` that exists (of the root collection when none does; None for a scalar root). Keys are
 * compared as the loader builds them (plain ones resolved through `resolve`/`cache`, as in load). Returns
 * `unsupported` where the text is not plain (anchors, aliases, tags, directives, collection keys, merge
 * keys, a syntax error anywhere in it, no document): the caller reads it with yamlio instead. The caller
 * passes the lines of one document that load() took, so keys are unique. */
enum { W_ROOT, W_KEY, W_VALUE_MATCH, W_VALUE_SKIP, W_ITEM, W_DONE };

static int plain_event(yaml_event_t *ev) {
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        return 0;
    case YAML_SCALAR_EVENT:
        return ev->data.scalar.anchor == NULL && ev->data.scalar.tag == NULL;
    case YAML_SEQUENCE_START_EVENT:
        return ev->data.sequence_start.anchor == NULL && ev->data.sequence_start.tag == NULL;
    case YAML_MAPPING_START_EVENT:
        return ev->data.mapping_start.anchor == NULL && ev->data.mapping_start.tag == NULL;
    case YAML_DOCUMENT_START_EVENT:
        return ev->data.document_start.version_directive == NULL &&
               ev->data.document_start.tag_directives.start == ev->data.document_start.tag_directives.end;
    default:
        return 1;
    }
}

static PyObject *locate(PyObject *self, PyObject *args) {
    PyObject *text, *path;
    ctx_t ctx;
    if (!PyArg_ParseTuple(args, "UO!OO!On", &text, &PyTuple_Type, &path, &ctx.resolve, &PyDict_Type, &ctx.cache,
                          &ctx.unsupported, &ctx.max_cached))
        return NULL;
    Py_ssize_t size;
    const char *buf = PyUnicode_AsUTF8AndSize(text, &size);
    if (buf == NULL)
        return NULL;
    yaml_parser_t parser;
    yaml_event_t ev;
    if (!yaml_parser_initialize(&parser))
        return PyErr_NoMemory();
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, (size_t)size);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);

    Py_ssize_t n = PyTuple_GET_SIZE(path), step = 0, item = 0;
    size_t best_line = 0, best_col = 0, key_line = 0, key_col = 0;
    int have_best = 0, state = W_ROOT, docs = 0, skip = 0, ok = 1, done = 0;

    while (ok == 1 && !done) {
        if (!yaml_parser_parse(&parser, &ev)) {
            ok = 0;
            break;
        }
        if (!plain_event(&ev)) {
            ok = 0;
            yaml_event_delete(&ev);
            break;
        }
        int start = ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_SEQUENCE_START_EVENT;
        int end = ev.type == YAML_MAPPING_END_EVENT || ev.type == YAML_SEQUENCE_END_EVENT;
        int node = start || ev.type == YAML_SCALAR_EVENT;
        if (ev.type == YAML_STREAM_END_EVENT)
            done = 1;
        else if (ev.type == YAML_DOCUMENT_START_EVENT)
            docs++;
        else if (ev.type == YAML_DOCUMENT_END_EVENT && state != W_DONE)
            state = W_DONE; /* the walk ends with the first document; the rest is only checked */
        if (docs != 1 || state == W_DONE || done) {
            /* outside the walk: only checking that the whole text is plain YAML */
        } else if (skip > 0) { /* inside a value or item that is not on the path */
            skip += start ? 1 : end ? -1 : 0;
            if (skip == 0 && state == W_ITEM)
                item++;
        } else if (state == W_ROOT) {
            if (node) {
                if (start) {
                    have_best = 1;
                    best_line = ev.start_mark.line;
                    best_col = ev.start_mark.column;
                }
                if (!start || step == n)
                    state = W_DONE;
                else {
                    state = ev.type == YAML_MAPPING_START_EVENT ? W_KEY : W_ITEM;
                    item = 0;
                }
            }
        } else if (state == W_KEY) {
            if (end) {
                state = W_DONE; /* the key is not there */
            } else if (ev.type != YAML_SCALAR_EVENT) {
                ok = 0; /* a collection as a key */
            } else {
                PyObject *key = scalar_value(&ctx, &ev);
                if (key == NULL) {
                    ok = PyErr_Occurred() ? -1 : 0;
                } else {
                    int eq = PyObject_RichCompareBool(key, PyTuple_GET_ITEM(path, step), Py_EQ);
                    Py_DECREF(key);
                    if (eq < 0) {
                        PyErr_Clear();
                        eq = 0;
                    }
                    state = eq ? W_VALUE_MATCH : W_VALUE_SKIP;
                    key_line = ev.start_mark.line;
                    key_col = ev.start_mark.column;
                }
            }
        } else if (state == W_VALUE_SKIP) {
            if (start)
                skip = 1;
            state = W_KEY;
        } else if (state == W_VALUE_MATCH || state == W_ITEM) {
            int here = 0;
            if (state == W_ITEM) {
                PyObject *want = PyTuple_GET_ITEM(path, step);
                if (end || !PyLong_Check(want)) {
                    state = W_DONE; /* past the last item, or a key into a list */
                } else {
                    Py_ssize_t idx = PyLong_AsSsize_t(want);
                    if (idx == -1 && PyErr_Occurred())
                        PyErr_Clear();
                    if (idx == item) {
                        here = 1;
                        best_line = ev.start_mark.line;
                        best_col = ev.start_mark.column;
                    } else if (start) {
                        skip = 1;
                    } else {
                        item++;
                    }
                }
            } else {
                here = 1;
                best_line = key_line;
                best_col = key_col;
            }
            if (here) {
                have_best = 1;
                step++;
                if (!start || step == n)
                    state = W_DONE;
                else {
                    state = ev.type == YAML_MAPPING_START_EVENT ? W_KEY : W_ITEM;
                    item = 0;
                }
            }
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (ok < 0)
        return NULL;
    if (ok == 0 || docs == 0)
        return Py_NewRef(ctx.unsupported);
    if (!have_best)
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", (Py_ssize_t)best_line + 1, (Py_ssize_t)best_col + 1);
}

static PyMethodDef methods[] = {
    {"load", load, METH_VARARGS, "load(text, resolve, cache, unsupported, max_depth, max_cached, max_nodes)"},
    {"locate", locate, METH_VARARGS, "locate(text, path, resolve, cache, unsupported, max_cached)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cyaml",
                                    "libyaml events straight into plain dicts and lists (see _cyaml.c).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__cyaml(void) { return PyModule_Create(&module); }
