/* The C floor: read, parse and search a flat-form tree with alpha-beta.
 *
 * The yardstick of benchmarks/parse.py: the least a program can spend going
 * from the text of a tree to its answer.  It reads the flat form as
 * benchmarks/shapes.py writes it (bare names, `a -> b, c` and `b = 3`
 * lines, integer values), keeps the names in a hash table, and runs the
 * slides' alpha-beta (alphabeta/boundedbest/goodenough/newbounds/betterof,
 * the same cuts and the same choice of best move) with MAX to move at the
 * root.  Not a general reader: anything else in the file is an error.
 *
 *   gcc -O2 -o floor floor.c && ./floor big.tree
 *
 * prints key=value lines: nodes, best, value, parse_cpu, search_cpu,
 * total_cpu (CPU seconds, from clock()), peak_rss_kb (VmHWM).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef long long val_t;
#define NEG_INF LLONG_MIN
#define POS_INF LLONG_MAX

static char *text;            /* the whole file; names point into it */
static const char **name;     /* node -> its name (not NUL-ended) */
static int *name_len;
static int n_nodes, cap_nodes;
static int *table;            /* open addressing: slot -> node + 1 */
static size_t table_size;

static int *parent, *first_kid, *n_kids, *kid_list;
static val_t *value;
static char *has_value, *is_max;

static void die(const char *what) { fprintf(stderr, "floor: %s\n", what); exit(2); }

static uint64_t hash(const char *s, int n) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void grow(void) {
    cap_nodes = cap_nodes ? cap_nodes * 2 : 1 << 16;
    name = realloc(name, cap_nodes * sizeof *name);
    name_len = realloc(name_len, cap_nodes * sizeof *name_len);
    parent = realloc(parent, cap_nodes * sizeof *parent);
    first_kid = realloc(first_kid, cap_nodes * sizeof *first_kid);
    n_kids = realloc(n_kids, cap_nodes * sizeof *n_kids);
    value = realloc(value, cap_nodes * sizeof *value);
    has_value = realloc(has_value, cap_nodes);
    if (!name || !name_len || !parent || !first_kid || !n_kids || !value || !has_value) die("out of memory");
}

static void rehash(void) {
    size_t size = table_size ? table_size * 2 : 1 << 17;
    int *t = calloc(size, sizeof *t);
    if (!t) die("out of memory");
    for (int i = 0; i < n_nodes; i++) {
        size_t s = hash(name[i], name_len[i]) & (size - 1);
        while (t[s]) s = (s + 1) & (size - 1);
        t[s] = i + 1;
    }
    free(table);
    table = t;
    table_size = size;
}

static int node(const char *s, int n) {
    if ((size_t)n_nodes * 2 >= table_size) rehash();
    size_t slot = hash(s, n) & (table_size - 1);
    while (table[slot]) {
        int i = table[slot] - 1;
        if (name_len[i] == n && memcmp(name[i], s, n) == 0) return i;
        slot = (slot + 1) & (table_size - 1);
    }
    if (n_nodes == cap_nodes) grow();
    int i = n_nodes++;
    name[i] = s; name_len[i] = n; parent[i] = -1; first_kid[i] = -1; n_kids[i] = 0; has_value[i] = 0;
    table[slot] = i + 1;
    return i;
}

static const char *p;

static void gap(void) { while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++; }

static int word(void) {
    gap();
    const char *s = p;
    if (!(*p >= 'a' && *p <= 'z')) die("expected a name");
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_') p++;
    return node(s, (int)(p - s));
}

/* kid lists as they are read: (parent, first edge) chains, made into
 * arrays after reading */
static int *edge_kid, *edge_next, n_edges, cap_edges;

static void parse(void) {
    gap();
    while (*p) {
        int a = word();
        gap();
        if (p[0] == '-' && p[1] == '>') {
            p += 2;
            int last = -1;
            do {
                int k = word();
                if (parent[k] >= 0) die("a second parent");
                parent[k] = a;
                if (n_edges == cap_edges) {
                    cap_edges = cap_edges ? cap_edges * 2 : 1 << 16;
                    edge_kid = realloc(edge_kid, cap_edges * sizeof *edge_kid);
                    edge_next = realloc(edge_next, cap_edges * sizeof *edge_next);
                    if (!edge_kid || !edge_next) die("out of memory");
                }
                edge_kid[n_edges] = k; edge_next[n_edges] = -1;
                if (last < 0) { if (first_kid[a] >= 0) die("children listed twice"); first_kid[a] = n_edges; }
                else edge_next[last] = n_edges;
                last = n_edges++;
                n_kids[a]++;
                gap();
            } while (*p == ',' && p++);
        } else if (*p == '=') {
            p++;
            gap();
            char *end;
            value[a] = strtoll(p, &end, 10);
            if (end == p) die("expected a number");
            if (has_value[a]) die("two values");
            has_value[a] = 1;
            p = end;
        } else {
            die("expected -> or =");
        }
        gap();
    }
    /* children as one array, in order */
    kid_list = malloc((n_edges + 1) * sizeof *kid_list);
    int at = 0;
    for (int i = 0; i < n_nodes; i++) {
        int e = first_kid[i];
        first_kid[i] = at;
        for (; e >= 0; e = edge_next[e]) kid_list[at++] = edge_kid[e];
    }
    free(edge_kid); free(edge_next);
}

static val_t alphabeta(int pos, val_t alpha, val_t beta, int *good);

/* boundedbest/goodenough/newbounds/betterof over kids[0..n) */
static val_t boundedbest(const int *kids, int n, val_t alpha, val_t beta, int *good) {
    int pos = kids[0], ignored;
    val_t val = alphabeta(pos, alpha, beta, &ignored);
    if (n == 1) { *good = pos; return val; }
    if ((!is_max[pos] && val > beta) || (is_max[pos] && val < alpha)) { *good = pos; return val; }
    val_t na = alpha, nb = beta;
    if (!is_max[pos] && val > alpha) na = val;
    else if (is_max[pos] && val < beta) nb = val;
    int pos1;
    val_t val1 = boundedbest(kids + 1, n - 1, na, nb, &pos1);
    if ((!is_max[pos] && val > val1) || (is_max[pos] && val < val1)) { *good = pos; return val; }
    *good = pos1;
    return val1;
}

static val_t alphabeta(int pos, val_t alpha, val_t beta, int *good) {
    if (n_kids[pos]) return boundedbest(kid_list + first_kid[pos], n_kids[pos], alpha, beta, good);
    if (!has_value[pos]) die("a leaf without a value");
    *good = -1;
    return value[pos];
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: floor FILE.tree\n"); return 2; }
    clock_t c0 = clock();
    FILE *f = fopen(argv[1], "rb");
    if (!f) die("cannot open the file");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc(size + 1);
    if (!text || fread(text, 1, size, f) != (size_t)size) die("cannot read the file");
    text[size] = 0;
    fclose(f);
    p = text;
    parse();
    int root = -1;
    for (int i = 0; i < n_nodes; i++)
        if (parent[i] < 0) { if (root >= 0) die("two roots"); root = i; }
    if (root < 0) die("no root");
    /* sides by depth, MAX at the root */
    is_max = malloc(n_nodes);
    int *stack = malloc(n_nodes * sizeof *stack), top = 0;
    is_max[root] = 1;
    stack[top++] = root;
    while (top) {
        int i = stack[--top];
        for (int k = 0; k < n_kids[i]; k++) {
            int c = kid_list[first_kid[i] + k];
            is_max[c] = !is_max[i];
            stack[top++] = c;
        }
    }
    free(stack);
    clock_t c1 = clock();
    int best;
    val_t v = alphabeta(root, NEG_INF, POS_INF, &best);
    clock_t c2 = clock();
    /* the peak of this program (VmHWM): getrusage's ru_maxrss would keep
     * the forked parent's peak from before exec */
    long peak = 0;
    char line[256];
    FILE *st = fopen("/proc/self/status", "r");
    while (st && fgets(line, sizeof line, st))
        if (strncmp(line, "VmHWM:", 6) == 0) peak = strtol(line + 6, NULL, 10);
    if (st) fclose(st);
    printf("nodes=%d\nbest=%.*s\nvalue=%lld\n", n_nodes, best >= 0 ? name_len[best] : 0,
           best >= 0 ? name[best] : "", v);
    printf("parse_cpu=%f\nsearch_cpu=%f\ntotal_cpu=%f\npeak_rss_kb=%ld\n",
           (double)(c1 - c0) / CLOCKS_PER_SEC, (double)(c2 - c1) / CLOCKS_PER_SEC,
           (double)(c2 - c0) / CLOCKS_PER_SEC, peak);
    return 0;
}
