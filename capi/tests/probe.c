/*
 * The C library's test: probes positions through libmorris and compares every answer with what
 * `morris query --json` printed for them.
 *
 *   probe --variant six --positions POSITIONS --expected ANSWERS FOLDER... \
 *         [--partial FOLDER] [--damaged FOLDER] [--wdl-only FOLDER]
 *
 * POSITIONS holds one position a line; ANSWERS the `morris --variant six query --json -` lines
 * for them, in the same order. Each FOLDER (a database folder, a tables folder) is opened and
 * every position is checked there: the value and depth (from the text and from bitboards), the
 * conversions between text and bitboards, every move with its value and depth in query's
 * order, the best move. Then 4 threads probe all positions at once on one handle, each checking
 * its own last error between. The error codes are checked on bad arguments and positions;
 * --partial names a folder where the start's sector is not solved (MORRIS_MISSING) but 3-3-0-0
 * is, --damaged one whose start sector file is damaged (MORRIS_DAMAGED), --wdl-only a tables
 * folder built with `morris tables --wdl-only` (every value, no depth: MORRIS_NO_DISTANCE). The error checks
 * write six's positions. Each FOLDER is also opened with morris_open_reader, its files read
 * by this program's own function (pread), and every position checked again, from 4 threads
 * too; a read function that fails is MORRIS_IO.
 *
 * Prints `N passed, M failed` and exits 1 on any mismatch.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -pthread -Icapi/include capi/tests/probe.c \
 *        target/release/libmorris.a -lm -ldl -o probe
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "morris.h"

#define THREADS 4
#define MAX_REPORTS 30

static atomic_long passed;
static atomic_long failed;

/* Records one check; prints the first MAX_REPORTS failures. */
static int check(int ok, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int check(int ok, const char *where, const char *fmt, ...) {
  if (ok) {
    atomic_fetch_add(&passed, 1);
    return 1;
  }
  long n = atomic_fetch_add(&failed, 1);
  if (n < MAX_REPORTS) {
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    fprintf(stderr, "FAIL %s: %s\n", where, text);
  } else if (n == MAX_REPORTS) {
    fprintf(stderr, "(further failures not shown)\n");
  }
  return 0;
}

/* ---- query --json's answers ---------------------------------------------------------- */

typedef struct {
  char text[MORRIS_MOVE_TEXT];
  int value, depth;
} expected_move;

typedef struct {
  char *input;        /* the line given to query */
  int error;          /* query answered {"error": ...} */
  char position[128]; /* the position as query normalised it */
  int value, depth;
  size_t n;
  expected_move *moves;
} expected;

static const char *ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
  return p;
}

/* A JSON string at p into out (cap bytes); returns the rest, or NULL when malformed. */
static const char *jstring(const char *p, char *out, size_t cap) {
  size_t n = 0;
  if (*p != '"') return NULL;
  for (p++; *p && *p != '"'; p++) {
    char c = *p;
    if (c == '\\') {
      p++;
      switch (*p) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'u': c = '?'; p += 4; break; /* not in query's answers; kept short */
        case '\0': return NULL;
        default: c = *p;
      }
    }
    if (n + 1 < cap) out[n++] = c;
  }
  if (*p != '"') return NULL;
  if (cap) out[n] = '\0';
  return p + 1;
}

/* Skips any JSON value. */
static const char *jskip(const char *p) {
  char scratch[8];
  p = ws(p);
  if (*p == '"') return jstring(p, scratch, sizeof scratch);
  if (*p == '{' || *p == '[') {
    char close = *p == '{' ? '}' : ']';
    p = ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
      if (close == '}') {
        p = jstring(ws(p), scratch, sizeof scratch);
        if (!p || *(p = ws(p)) != ':') return NULL;
        p++;
      }
      if (!(p = jskip(p))) return NULL;
      p = ws(p);
      if (*p == ',') { p++; continue; }
      return *p == close ? p + 1 : NULL;
    }
  }
  while (*p && *p != ',' && *p != '}' && *p != ']') p++;
  return p;
}

static int value_code(const char *name) {
  if (!strcmp(name, "win")) return MORRIS_WIN;
  if (!strcmp(name, "loss")) return MORRIS_LOSS;
  if (!strcmp(name, "draw")) return MORRIS_DRAW;
  return 99;
}

/* A depth: a number or null (-1). */
static const char *jdepth(const char *p, int *depth) {
  p = ws(p);
  if (!strncmp(p, "null", 4)) {
    *depth = -1;
    return p + 4;
  }
  char *end;
  long d = strtol(p, &end, 10);
  if (end == p) return NULL;
  *depth = (int)d;
  return end;
}

/* Calls field(key, p) for each member of the object at p; returns the rest. */
typedef const char *(*member_fn)(void *into, const char *key, const char *p);
static const char *jobject(const char *p, void *into, member_fn field) {
  char key[32];
  p = ws(p);
  if (*p != '{') return NULL;
  p = ws(p + 1);
  if (*p == '}') return p + 1;
  for (;;) {
    if (!(p = jstring(ws(p), key, sizeof key))) return NULL;
    p = ws(p);
    if (*p != ':') return NULL;
    if (!(p = field(into, key, ws(p + 1)))) return NULL;
    p = ws(p);
    if (*p == ',') { p++; continue; }
    return *p == '}' ? p + 1 : NULL;
  }
}

static const char *move_member(void *into, const char *key, const char *p) {
  expected_move *m = into;
  char name[16];
  if (!strcmp(key, "move")) return jstring(p, m->text, sizeof m->text);
  if (!strcmp(key, "depth")) return jdepth(p, &m->depth);
  if (!strcmp(key, "value")) {
    p = jstring(p, name, sizeof name);
    m->value = value_code(name);
    return p;
  }
  return jskip(p);
}

static const char *answer_member(void *into, const char *key, const char *p) {
  expected *e = into;
  char name[16];
  if (!strcmp(key, "error")) {
    e->error = 1;
    return jskip(p);
  }
  if (!strcmp(key, "position")) return jstring(p, e->position, sizeof e->position);
  if (!strcmp(key, "depth")) return jdepth(p, &e->depth);
  if (!strcmp(key, "value")) {
    p = jstring(p, name, sizeof name);
    e->value = value_code(name);
    return p;
  }
  if (strcmp(key, "moves")) return jskip(p);
  if (*p != '[') return NULL;
  size_t cap = 16;
  e->moves = calloc(cap, sizeof *e->moves);
  p = ws(p + 1);
  if (*p == ']') return p + 1;
  for (;;) {
    if (e->n == cap) e->moves = realloc(e->moves, (cap *= 2) * sizeof *e->moves);
    if (!e->moves) return NULL;
    if (!(p = jobject(p, &e->moves[e->n++], move_member))) return NULL;
    p = ws(p);
    if (*p == ',') { p = ws(p + 1); continue; }
    return *p == ']' ? p + 1 : NULL;
  }
}

/* The lines of a file, without their newlines. */
static char **read_lines(const char *path, size_t *count) {
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    exit(2);
  }
  size_t n = 0, cap = 1024;
  char **lines = malloc(cap * sizeof *lines);
  char *line = NULL;
  size_t len = 0;
  ssize_t got;
  while ((got = getline(&line, &len, f)) >= 0) {
    while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r')) line[--got] = '\0';
    if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
    lines[n++] = strdup(line);
  }
  free(line);
  fclose(f);
  *count = n;
  return lines;
}

/* ---- bitboards from the notation, independently of the library ----------------------- */

typedef struct {
  uint32_t white, black;
  uint8_t white_hand, black_hand;
  int side;
} bits;

/* Bit k is the k-th character of ROWS, slashes skipped (docs/format.md section 5.1). */
static int notation_bits(const char *text, bits *out) {
  char rows[64], turn[4];
  unsigned wh, bh;
  if (sscanf(text, "%63s %3s %u %u", rows, turn, &wh, &bh) != 4) return 0;
  memset(out, 0, sizeof *out);
  int k = 0;
  for (const char *c = rows; *c; c++) {
    if (*c == '/') continue;
    if (*c == 'W') out->white |= 1u << k;
    if (*c == 'B') out->black |= 1u << k;
    k++;
  }
  out->white_hand = (uint8_t)wh;
  out->black_hand = (uint8_t)bh;
  out->side = turn[0] == 'b' ? MORRIS_BLACK : MORRIS_WHITE;
  return 1;
}

/* ---- one position, every function ----------------------------------------------------- */

typedef struct {
  const char *label;
  morris_db *db;
  char names[MORRIS_MAX_POINTS][8];
} folder;

/* Playing move m leads to a position whose value, seen from before the move, is m's. */
static void check_play(const folder *f, const char *where, const char *input,
                       const morris_move *m) {
  char after[128];
  int rc = morris_play(f->db, input, m->text, after, sizeof after);
  if (!check(rc == MORRIS_OK, where, "morris_play %s: %d %s", m->text, rc, morris_last_error()))
    return;
  morris_value r = {99, 99};
  rc = morris_probe_text(f->db, after, &r);
  int depth = r.depth < 0 ? -1 : r.depth + 1;
  check(rc == MORRIS_OK && -r.value == m->value && depth == m->depth, where,
        "after %s (%s): %d, value %d depth %d, the move says %d %d", m->text, after, rc, r.value,
        r.depth, m->value, m->depth);
}

static void check_moves(const folder *f, const char *where, const char *input, const expected *e,
                        int deep) {
  static _Thread_local morris_move moves[MORRIS_MAX_MOVES];
  size_t n = 12345;
  int rc = morris_moves(f->db, input, moves, MORRIS_MAX_MOVES, &n);
  if (!check(rc == MORRIS_OK, where, "morris_moves: %d %s", rc, morris_last_error())) return;
  if (!check(n == e->n, where, "%zu moves, query lists %zu", n, e->n)) return;
  for (size_t i = 0; i < n; i++) {
    const morris_move *m = &moves[i];
    const expected_move *x = &e->moves[i];
    check(!strcmp(m->text, x->text) && m->value == x->value && m->depth == x->depth, where,
          "move %zu: %s %d %d, query: %s %d %d", i, m->text, m->value, m->depth, x->text,
          x->value, x->depth);
    char built[32];
    snprintf(built, sizeof built, "%s%s%s%s%s", m->from >= 0 ? f->names[m->from] : "",
             m->from >= 0 ? "-" : "", f->names[m->to], m->removed >= 0 ? "x" : "",
             m->removed >= 0 ? f->names[m->removed] : "");
    check(!strcmp(built, m->text), where, "move %s: its points spell %s", m->text, built);
    if (deep) check_play(f, where, input, m);
  }
}

static void check_best(const folder *f, const char *where, const char *input, const expected *e) {
  char best[MORRIS_MOVE_TEXT];
  int rc = morris_best_move(f->db, input, best, sizeof best);
  if (e->n == 0) {
    check(rc == MORRIS_GAME_OVER, where, "best move without moves: %d %s", rc, morris_last_error());
    return;
  }
  if (!check(rc == MORRIS_OK, where, "morris_best_move: %d %s", rc, morris_last_error())) return;
  int keeps = 0;
  for (size_t i = 0; i < e->n; i++) {
    const expected_move *x = &e->moves[i];
    if (!strcmp(x->text, best)) keeps = x->value == e->value && x->depth == e->depth;
  }
  check(keeps, where, "best move %s does not keep the value %d %d", best, e->value, e->depth);
  /* A win takes the first of the fastest: query's first move. */
  if (e->value == MORRIS_WIN)
    check(!strcmp(best, e->moves[0].text), where, "best win %s, query's first %s", best,
          e->moves[0].text);
  /* At a strength: perfect (NULL) keeps the value whatever the seed; a weaker level plays a
     legal move, the same one for the same seed. */
  char at[MORRIS_MOVE_TEXT], again[MORRIS_MOVE_TEXT];
  uint64_t seed = (uint64_t)e->n * 2654435761u;
  rc = morris_best_move_at(f->db, input, NULL, seed, at, sizeof at);
  if (!check(rc == MORRIS_OK, where, "morris_best_move_at perfect: %d %s", rc, morris_last_error()))
    return;
  keeps = 0;
  for (size_t i = 0; i < e->n; i++)
    if (!strcmp(e->moves[i].text, at))
      keeps = e->moves[i].value == e->value && e->moves[i].depth == e->depth;
  check(keeps, where, "perfect %s (seed) does not keep the value", at);
  rc = morris_best_move_at(f->db, input, "novice", seed, at, sizeof at);
  int rc2 = morris_best_move_at(f->db, input, "novice", seed, again, sizeof again);
  if (!check(rc == MORRIS_OK && rc2 == MORRIS_OK, where, "morris_best_move_at novice: %d %s", rc,
             morris_last_error()))
    return;
  check(!strcmp(at, again), where, "novice, same seed: %s then %s", at, again);
  int legal = 0;
  for (size_t i = 0; i < e->n; i++) legal |= !strcmp(e->moves[i].text, at);
  check(legal, where, "novice move %s is not legal", at);
}

/* The bitboard forms answer as the text forms: the moves, the best moves, and each move played. */
static void check_bits_forms(const folder *f, const char *where, const char *input, const bits *b,
                             const expected *e) {
  static _Thread_local morris_move text_moves[MORRIS_MAX_MOVES], bit_moves[MORRIS_MAX_MOVES];
  morris_bits p = {b->white, b->black, b->white_hand, b->black_hand, b->side};
  size_t n = 0, nb = 12345;
  int rc = morris_moves(f->db, input, text_moves, MORRIS_MAX_MOVES, &n);
  int rcb = morris_moves_bits(f->db, &p, bit_moves, MORRIS_MAX_MOVES, &nb);
  if (!check(rc == MORRIS_OK && rcb == MORRIS_OK && n == nb, where,
             "morris_moves_bits: %d %zu moves, the text form %d %zu: %s", rcb, nb, rc, n,
             morris_last_error()))
    return;
  for (size_t i = 0; i < n; i++) {
    const morris_move *a = &text_moves[i], *m = &bit_moves[i];
    check(!strcmp(a->text, m->text) && a->value == m->value && a->depth == m->depth &&
              a->from == m->from && a->to == m->to && a->removed == m->removed,
          where, "morris_moves_bits move %zu: %s, morris_moves: %s", i, m->text, a->text);
  }
  for (size_t i = 0; i < n; i++) {
    char text_after[128];
    morris_bits after = {0}, expected_after = {0};
    bits eb;
    rc = morris_play(f->db, input, text_moves[i].text, text_after, sizeof text_after);
    rcb = morris_play_bits(f->db, &p, &bit_moves[i], &after);
    if (!check(rc == MORRIS_OK && rcb == MORRIS_OK && notation_bits(text_after, &eb), where,
               "morris_play_bits %s: %d %s", text_moves[i].text, rcb, morris_last_error()))
      continue;
    expected_after = (morris_bits){eb.white, eb.black, eb.white_hand, eb.black_hand, eb.side};
    check(after.white == expected_after.white && after.black == expected_after.black &&
              after.white_hand == expected_after.white_hand &&
              after.black_hand == expected_after.black_hand &&
              after.side_to_move == expected_after.side_to_move,
          where, "morris_play_bits %s differs from morris_play's %s", text_moves[i].text,
          text_after);
  }
  morris_move best;
  char text_best[MORRIS_MOVE_TEXT];
  rc = morris_best_move(f->db, input, text_best, sizeof text_best);
  rcb = morris_best_move_bits(f->db, &p, NULL, 0, &best);
  if (e->n == 0) {
    check(rcb == MORRIS_GAME_OVER, where, "morris_best_move_bits without moves: %d", rcb);
    return;
  }
  check(rc == MORRIS_OK && rcb == MORRIS_OK && !strcmp(best.text, text_best) &&
            best.value == e->value && best.depth == e->depth,
        where, "morris_best_move_bits: %d %s %d %d, the text form %s", rcb, best.text, best.value,
        best.depth, text_best);
  uint64_t seed = (uint64_t)e->n * 40503u;
  rc = morris_best_move_at(f->db, input, "club", seed, text_best, sizeof text_best);
  rcb = morris_best_move_bits(f->db, &p, "club", seed, &best);
  int listed = 0;
  for (size_t i = 0; i < n; i++)
    listed |= !strcmp(text_moves[i].text, best.text) && text_moves[i].value == best.value &&
              text_moves[i].depth == best.depth;
  check(rc == MORRIS_OK && rcb == MORRIS_OK && !strcmp(best.text, text_best) && listed, where,
        "morris_best_move_bits club: %d %s, the text form %s", rcb, best.text, text_best);
}

static void check_position(const folder *f, size_t line, const char *input, const expected *e,
                           int deep) {
  char where[256];
  snprintf(where, sizeof where, "%s line %zu (%s)", f->label, line, input);
  morris_value v = {99, 99};
  int rc = morris_probe_text(f->db, input, &v);
  if (e->error) {
    check(rc == MORRIS_BAD_INPUT && morris_last_error()[0], where,
          "query refused it, the probe says %d", rc);
    return;
  }
  if (!check(rc == MORRIS_OK, where, "morris_probe_text: %d %s", rc, morris_last_error())) return;
  check(v.value == e->value && v.depth == e->depth, where, "value %d depth %d, query %d %d",
        v.value, v.depth, e->value, e->depth);
  check(morris_last_error()[0] == '\0', where, "last error after a success: %s",
        morris_last_error());
  bits b;
  if (!check(notation_bits(e->position, &b), where, "query's position %s", e->position)) return;
  morris_value vb = {99, 99};
  rc = morris_probe_bits(f->db, b.white, b.black, b.white_hand, b.black_hand, b.side, &vb);
  check(rc == MORRIS_OK && vb.value == e->value && vb.depth == e->depth, where,
        "morris_probe_bits: %d %s, value %d depth %d", rc, morris_last_error(), vb.value,
        vb.depth);
  check_moves(f, where, input, e, deep);
  if (!deep) return;
  bits lb;
  rc = morris_position_bits(f->db, input, &lb.white, &lb.black, &lb.white_hand, &lb.black_hand,
                            &lb.side);
  check(rc == MORRIS_OK && lb.white == b.white && lb.black == b.black &&
            lb.white_hand == b.white_hand && lb.black_hand == b.black_hand && lb.side == b.side,
        where, "morris_position_bits: %d %s", rc, morris_last_error());
  char text[128];
  rc = morris_position_text(f->db, b.white, b.black, b.white_hand, b.black_hand, b.side, text,
                            sizeof text);
  check(rc == MORRIS_OK && !strcmp(text, e->position), where, "morris_position_text: %d %s, %s",
        rc, morris_last_error(), rc == MORRIS_OK ? text : "");
  check_best(f, where, input, e);
  check_bits_forms(f, where, input, &b, e);
}

/* ---- threads ----------------------------------------------------------------------- */

typedef struct {
  const folder *f;
  int id;
  size_t n;
  char **inputs;
  const expected *answers;
} job;

static void *probe_all(void *arg) {
  const job *j = arg;
  char bad[64], where[64];
  snprintf(where, sizeof where, "%s thread %d", j->f->label, j->id);
  for (size_t k = 0; k < j->n; k++) {
    /* Each thread walks the positions from its own starting point. */
    size_t i = (k + (size_t)j->id * j->n / THREADS) % j->n;
    check_position(j->f, i + 1, j->inputs[i], &j->answers[i], 0);
    if (k % 97 == 0) {
      /* The last error is this thread's own. */
      morris_value v;
      snprintf(bad, sizeof bad, "thread-%d-line-%zu", j->id, k);
      int rc = morris_probe_text(j->f->db, bad, &v);
      check(rc == MORRIS_BAD_INPUT && strstr(morris_last_error(), bad), where,
            "bad position: %d, last error %s", rc, morris_last_error());
    }
  }
  return NULL;
}

static void probe_threads(const folder *f, size_t n, char **inputs, const expected *answers) {
  pthread_t threads[THREADS];
  job jobs[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t] = (job){f, t, n, inputs, answers};
    if (pthread_create(&threads[t], NULL, probe_all, &jobs[t])) {
      check(0, f->label, "pthread_create failed");
      return;
    }
  }
  for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
}

/* ---- error codes ----------------------------------------------------------------------- */

static int fails_with(int rc, int code, const char *where, const char *needle) {
  const char *e = morris_last_error();
  return check(rc == code && e[0] && (!needle || strstr(e, needle)), where,
               "expected code %d with a message containing \"%s\", got %d: %s", code,
               needle ? needle : "", rc, e);
}

/* A call on the handle that fails, made on a thread of its own. */
static void *fail_on_handle(void *db) {
  morris_value v;
  morris_probe_text((morris_db *)db, "not a position", &v);
  return NULL;
}

/* The last error is kept per handle, whichever thread made the call, as well as per thread. */
static void check_handle_errors(const folder *f) {
  morris_db *db = f->db;
  morris_value v;
  char message[1024], tiny[4];
  fails_with(morris_probe_text(db, "W./.../..../.../... w 6 6", &v), MORRIS_BAD_INPUT,
             "handle's error", "invalid position");
  char thread_message[1024];
  snprintf(thread_message, sizeof thread_message, "%s", morris_last_error());
  check(morris_db_last_status(db) == MORRIS_BAD_INPUT, "handle's status", "%d",
        morris_db_last_status(db));
  check(morris_db_last_error(db, message, sizeof message) == MORRIS_OK &&
            !strcmp(message, thread_message),
        "handle's message", "\"%s\" against the thread's \"%s\"", message, thread_message);
  check(morris_db_last_error(db, tiny, sizeof tiny) == MORRIS_BUFFER && tiny[0] == '\0',
        "handle's message, small buffer", "\"%s\"", tiny);
  check(morris_probe_text(db, "start", &v) == MORRIS_OK && morris_db_last_status(db) == MORRIS_OK &&
            morris_db_last_error(db, message, sizeof message) == MORRIS_OK && !message[0],
        "handle's success", "status %d, \"%s\"", morris_db_last_status(db), message);
  pthread_t other;
  if (!check(pthread_create(&other, NULL, fail_on_handle, db) == 0, "handle's thread",
             "pthread_create failed"))
    return;
  pthread_join(other, NULL);
  check(morris_last_status() == MORRIS_OK && morris_db_last_status(db) == MORRIS_BAD_INPUT,
        "another thread's call", "this thread %d, the handle %d", morris_last_status(),
        morris_db_last_status(db));
  check(morris_db_last_status(NULL) == MORRIS_BAD_INPUT &&
            morris_db_last_error(NULL, message, sizeof message) == MORRIS_BAD_INPUT,
        "NULL handle", "a status from NULL");
}

static void check_errors(const folder *f) {
  morris_value v;
  morris_db *db = f->db;
  check_handle_errors(f);
  fails_with(morris_probe_text(db, "W./.../..../.../... w 6 6", &v), MORRIS_BAD_INPUT,
             "malformed position", "invalid position");
  fails_with(morris_probe_text(db, NULL, &v), MORRIS_BAD_INPUT, "NULL position", "NULL");
  fails_with(morris_probe_text(db, "start", NULL), MORRIS_BAD_INPUT, "NULL out", "NULL");
  fails_with(morris_probe_text(NULL, "start", &v), MORRIS_BAD_INPUT, "NULL db", "NULL");
  fails_with(morris_probe_text(db, "\xff\xfe", &v), MORRIS_BAD_INPUT, "not UTF-8", "UTF-8");
  /* White, the side that just moved, is down to one piece: no game gets here. */
  fails_with(morris_probe_text(db, "W../.../..../.../BBB b 0 0", &v), MORRIS_BAD_INPUT,
             "unreachable position", "cannot occur");
  int points = morris_point_count(db);
  if (points < 32)
    fails_with(morris_probe_bits(db, 1u << points, 0, 6, 6, MORRIS_WHITE, &v), MORRIS_BAD_INPUT,
               "bit outside the board", "bit");
  fails_with(morris_probe_bits(db, 1, 1, 5, 5, MORRIS_WHITE, &v), MORRIS_BAD_INPUT,
             "point of both sides", "both");
  fails_with(morris_probe_bits(db, 0, 0, 6, 6, 2, &v), MORRIS_BAD_INPUT, "side 2", "side");
  {
    /* The bitboard forms refuse what the text forms refuse, and NULL pointers. */
    morris_bits start = {0, 0, 6, 6, MORRIS_WHITE}, both = {1, 1, 5, 5, MORRIS_WHITE};
    morris_move mv, nowhere = {"", 0, 0, -1, 31, -1};
    morris_bits after;
    size_t count;
    fails_with(morris_moves_bits(db, &both, NULL, 0, &count), MORRIS_BAD_INPUT, "moves, both", "both");
    fails_with(morris_moves_bits(db, NULL, NULL, 0, &count), MORRIS_BAD_INPUT, "moves, NULL", "NULL");
    fails_with(morris_best_move_bits(db, &start, "grandmaster", 1, &mv), MORRIS_BAD_INPUT,
               "best, strength", "grandmaster");
    fails_with(morris_best_move_bits(db, &start, NULL, 0, NULL), MORRIS_BAD_INPUT, "best, NULL out",
               "NULL");
    fails_with(morris_play_bits(db, &start, &nowhere, &after), MORRIS_BAD_INPUT, "play, no such move",
               "no legal move");
    fails_with(morris_play_bits(db, &start, NULL, &after), MORRIS_BAD_INPUT, "play, NULL move",
               "NULL");
  }
  fails_with(morris_probe_bits(db, 0, 0, 6, 5, MORRIS_WHITE, &v), MORRIS_BAD_INPUT,
             "hands that cannot alternate", "hands");
  size_t n = 0;
  fails_with(morris_moves(db, "start", NULL, 0, &n), MORRIS_BUFFER, "count only", "legal moves");
  check(n == (size_t)points, "count only", "start has %zu moves, the board %d points", n, points);
  morris_move two[2];
  fails_with(morris_moves(db, "start", two, 2, &n), MORRIS_BUFFER, "two moves", NULL);
  check(n == (size_t)points && two[0].text[0], "two moves", "count %zu, first %s", n, two[0].text);
  fails_with(morris_moves(db, "start", two, 2, NULL), MORRIS_BAD_INPUT, "NULL count", "NULL");
  char after[128];
  fails_with(morris_play(db, "start", "a5-c5", after, sizeof after), MORRIS_BAD_INPUT,
             "illegal move", "not a legal move");
  fails_with(morris_play(db, "start", "z9", after, sizeof after), MORRIS_BAD_INPUT,
             "no such point", "not a point");
  check(morris_play(db, "start", "c4", after, sizeof after) == MORRIS_OK &&
            !strcmp(after, ".../.W./..../.../... b 5 6"),
        "play c4", "%s %s", after, morris_last_error());
  char small[2];
  fails_with(morris_best_move(db, "start", small, sizeof small), MORRIS_BUFFER, "small buffer",
             "bytes");
  char best[MORRIS_MOVE_TEXT];
  fails_with(morris_best_move_at(db, "start", "master", 1, best, sizeof best), MORRIS_BAD_INPUT,
             "unknown strength", "unknown strength value \"master\" (expected perfect, expert, strong, advanced, intermediate, club, casual, novice)");
  check(small[0] == '\0', "small buffer", "holds \"%.1s\", not the empty string", small);
  fails_with(morris_point_name(db, points, small, sizeof small), MORRIS_BAD_INPUT,
             "point past the board", "does not exist");
  fails_with(morris_point_name(db, -1, small, sizeof small), MORRIS_BAD_INPUT, "point -1",
             "does not exist");
  check(morris_probe_text(db, "start", &v) == MORRIS_OK && !morris_last_error()[0], "success",
        "a success leaves the last error empty: %s", morris_last_error());
  char text[128];
  check(morris_position_text(db, 0, 0, 6, 6, MORRIS_WHITE, text, sizeof text) == MORRIS_OK &&
            !strncmp(text, "...", 3),
        "start as text", "%s", morris_last_error());
}

/* morris_open(path, variant, rules) fails with code and a message containing needle. */
static void open_fails(const char *path, const char *variant, const char *rules, int code,
                       const char *where, const char *needle) {
  morris_db *db = morris_open(path, variant, rules);
  if (!check(db == NULL, where, "it opened")) {
    morris_close(db);
    return;
  }
  fails_with(morris_last_status(), code, where, needle);
}

static void check_open_errors(const char *variant, const char *path) {
  open_fails("/nonexistent/morris-folder", variant, NULL, MORRIS_IO, "missing folder",
             "/nonexistent/morris-folder");
  open_fails(path, "ten", NULL, MORRIS_BAD_INPUT, "unknown variant", "unknown variant");
  open_fails(path, variant, "flying=sometimes", MORRIS_BAD_INPUT, "bad rule value", "flying");
  open_fails(path, variant, "speed=3", MORRIS_BAD_INPUT, "unknown switch", "speed");
  open_fails(path, variant, "flying", MORRIS_BAD_INPUT, "switch without value", "NAME=VALUE");
  open_fails(NULL, variant, NULL, MORRIS_BAD_INPUT, "NULL path", "NULL");
  open_fails("/dev/null", variant, NULL, MORRIS_BAD_INPUT, "not a folder", "not a folder");
  /* Another rule set: nothing of it is solved there. */
  open_fails(path, variant, "flying=always, removal=lenient", MORRIS_MISSING, "other rules",
             "no solved sectors of");
  check(strstr(morris_last_advice(), "--flying always --removal lenient") != NULL &&
            strstr(morris_last_error(), "morris solve") == NULL,
        "other rules", "the advice names the rules, the message no command: %s / %s",
        morris_last_advice(), morris_last_error());
  /* No variant: the folder's one solved rule set; none of it under other rules. */
  open_fails(path, NULL, "flying=always,removal=lenient", MORRIS_MISSING, "no variant, other rules",
             "no solved rule set");
  morris_db *named = morris_open(path, variant, NULL), *found = morris_open(path, NULL, NULL);
  if (check(named && found, "no variant", "morris_open: %s", morris_last_error())) {
    morris_value a, b;
    check(morris_point_count(found) == morris_point_count(named) &&
              morris_probe_text(found, "start", &a) == MORRIS_OK &&
              morris_probe_text(named, "start", &b) == MORRIS_OK && a.value == b.value &&
              a.depth == b.depth,
          "no variant", "another rule set was opened: %s", morris_last_error());
  }
  morris_close(named);
  morris_close(found);
  morris_close(NULL);
  check(morris_last_status() == MORRIS_OK && !morris_last_error()[0], "close NULL",
        "status %d: %s", morris_last_status(), morris_last_error());
  /* Closed twice: harmless, as free(NULL); used after it was closed: an error code. */
  morris_close(named);
  check(morris_last_status() == MORRIS_OK, "close twice", "status %d: %s", morris_last_status(),
        morris_last_error());
  if (named) {
    morris_value v;
    fails_with(morris_probe_text(named, "start", &v), MORRIS_BAD_INPUT, "use after close",
               "db is closed");
    check(morris_point_count(named) == -1, "use after close", "a point count from a closed db");
  }
}

static void check_partial(const char *path, const char *variant) {
  morris_db *db = morris_open(path, variant, NULL);
  if (!check(db != NULL, "partial", "morris_open: %s", morris_last_error())) return;
  morris_value v;
  fails_with(morris_probe_text(db, "start", &v), MORRIS_MISSING, "partial start", "not solved");
  /* The message is for the app's user; the command that cures it is the advice, apart. */
  check(strstr(morris_last_error(), "morris solve") == NULL, "partial start",
        "a command line in the message: %s", morris_last_error());
  check(strncmp(morris_last_advice(), "morris solve --variant ", 23) == 0 &&
            strstr(morris_last_advice(), "--sector 0-0-") != NULL,
        "partial start", "advice: %s", morris_last_advice());
  char advice[512], thread_advice[512];
  snprintf(thread_advice, sizeof thread_advice, "%s", morris_last_advice());
  int rca = morris_db_last_advice(db, advice, sizeof advice);
  check(rca == MORRIS_OK && !strcmp(advice, thread_advice), "partial start",
        "morris_db_last_advice: %d %s", rca, advice);
  char best[MORRIS_MOVE_TEXT];
  fails_with(morris_best_move(db, "start", best, sizeof best), MORRIS_MISSING, "partial best",
             NULL);
  morris_bits start = {0, 0, 0, 0, MORRIS_WHITE}, endgame = {0, 0, 0, 0, MORRIS_WHITE};
  int covered = -1;
  int rc = morris_position_bits(db, "start", &start.white, &start.black, &start.white_hand,
                            &start.black_hand, &start.side_to_move);
  rc = rc ? rc : morris_covers_bits(db, &start, &covered);
  check(rc == MORRIS_OK && covered == 0, "partial covers start", "%d %d", rc, covered);
  rc = morris_position_bits(db, "WW./.../BB../.../W.B w 0 0", &endgame.white, &endgame.black,
                            &endgame.white_hand, &endgame.black_hand, &endgame.side_to_move);
  rc = rc ? rc : morris_covers_bits(db, &endgame, &covered);
  check(rc == MORRIS_OK && covered == 1, "partial covers 3-3-0-0", "%d %d", rc, covered);
  rc = morris_probe_text(db, "WW./.../BB../.../W.B w 0 0", &v);
  check(rc == MORRIS_OK, "partial 3-3-0-0", "%d %s", rc, morris_last_error());
  morris_close(db);
}

static void check_damaged(const char *path, const char *variant) {
  morris_db *db = morris_open(path, variant, NULL);
  if (!check(db != NULL, "damaged", "morris_open: %s", morris_last_error())) return;
  morris_value v;
  fails_with(morris_probe_text(db, "start", &v), MORRIS_DAMAGED, "damaged start", "damaged");
  morris_close(db);
}

/* A WDL-only folder: every position's value from morris_probe_wdl_bits as the database's;
   morris_probe_text answers draws and finished positions (lost at depth 0, read from no file)
   and refuses a win's or a loss's depth with MORRIS_NO_DISTANCE, never a guess. */
static void check_wdl_only(const char *path, const char *variant, size_t n,
                           const expected *answers) {
  morris_db *db = morris_open(path, variant, NULL);
  if (!check(db != NULL, "wdl-only", "morris_open: %s", morris_last_error())) return;
  size_t refused = 0, answered = 0;
  for (size_t i = 0; i < n; i++) {
    const expected *e = &answers[i];
    if (e->error) continue;
    answered++;
    morris_bits b = {0, 0, 0, 0, MORRIS_WHITE};
    int32_t w = 99;
    int rc = morris_position_bits(db, e->input, &b.white, &b.black, &b.white_hand, &b.black_hand,
                                  &b.side_to_move);
    rc = rc ? rc : morris_probe_wdl_bits(db, &b, &w);
    check(rc == MORRIS_OK && w == e->value, "wdl-only value", "%s: %d, value %d, expected %d: %s",
          e->input, rc, w, e->value, morris_last_error());
    morris_value v = {99, 99};
    rc = morris_probe_text(db, e->input, &v);
    if (rc == MORRIS_NO_DISTANCE) {
      check(e->value != MORRIS_DRAW && strstr(morris_last_error(), "depth file") != NULL,
            "wdl-only depth", "%s: refused (%s), expected %d", e->input, morris_last_error(),
            e->value);
      refused++;
    } else {
      check(rc == MORRIS_OK && v.value == e->value && v.depth == e->depth &&
                (e->value == MORRIS_DRAW || e->depth == 0),
            "wdl-only depth", "%s: %d, %d at %d, expected %d at %d: %s", e->input, rc, v.value,
            v.depth, e->value, e->depth, morris_last_error());
    }
  }
  check(refused * 10 > answered, "wdl-only", "only %zu of %zu refused a depth", refused,
        answered);
  printf("wdl-only %s: %zu positions, %zu depths refused\n", path, answered, refused);
  morris_close(db);
}

/* ---- batches, win/draw/loss only, coverage, cache sizes ------------------------------- */

/* Every position answered by the batch call as one by one, with a bad item among them that
   gets its own status; the win/draw/loss probe agrees; every position is covered; the folder
   lists its sectors; a mapped handle and one with a small cache answer alike. */
static void check_batch(const char *path, const char *variant, size_t n, const expected *answers) {
  const char *where = path;
  morris_db *db = morris_open(path, variant, "");
  if (!check(db != NULL, where, "morris_open: %s", morris_last_error())) return;
  morris_bits *items = calloc(n + 2, sizeof *items);
  morris_value *out = calloc(n + 2, sizeof *out);
  int *statuses = calloc(n + 2, sizeof *statuses);
  size_t k = 0, bad_at = 0, bad_side = 0;
  for (size_t i = 0; i < n; i++) {
    bits b;
    if (answers[i].error || !notation_bits(answers[i].position, &b)) continue;
    items[k++] = (morris_bits){b.white, b.black, b.white_hand, b.black_hand, b.side};
    if (k == 7) {
      bad_at = k;
      items[k++] = (morris_bits){1u << 31, 0, 0, 0, MORRIS_WHITE}; /* off the board */
    }
  }
  bad_side = k;
  items[k++] = (morris_bits){0, 0, 0, 0, 5};
  int rc = morris_probe_many_bits(db, items, k, out, statuses);
  char want[64];
  snprintf(want, sizeof want, "item %zu: ", bad_at);
  check(rc == MORRIS_BAD_INPUT && strncmp(morris_last_error(), want, strlen(want)) == 0, where,
        "morris_probe_many_bits with bad items: %d %s", rc, morris_last_error());
  size_t j = 0, answered = 0;
  for (size_t i = 0; i < k; i++) {
    if (i == bad_at || i == bad_side) {
      check(statuses[i] == MORRIS_BAD_INPUT && out[i].value == MORRIS_DRAW && out[i].depth == -1,
            where, "batch item %zu (bad): status %d", i, statuses[i]);
      continue;
    }
    while (answers[j].error) j++;
    const expected *e = &answers[j++];
    if (check(statuses[i] == MORRIS_OK && out[i].value == e->value && out[i].depth == e->depth,
              where, "batch item %zu (%s): status %d value %d depth %d, query %d %d", i,
              e->position, statuses[i], out[i].value, out[i].depth, e->value, e->depth))
      answered++;
    int32_t wdl = 99;
    rc = morris_probe_wdl_bits(db, &items[i], &wdl);
    check(rc == MORRIS_OK && wdl == e->value, where, "morris_probe_wdl_bits %s: %d %d", e->position,
          rc, wdl);
    int covered = -1;
    rc = morris_covers_bits(db, &items[i], &covered);
    check(rc == MORRIS_OK && covered == 1, where, "morris_covers_bits %s: %d %d", e->position, rc,
          covered);
  }
  check(answered > 100, where, "%zu batch items answered", answered);
  /* Without the bad items, and without statuses: MORRIS_OK. */
  rc = morris_probe_many_bits(db, items, bad_at, out, NULL);
  check(rc == MORRIS_OK, where, "a sound batch: %d %s", rc, morris_last_error());
  check(morris_probe_many_bits(db, NULL, 0, NULL, NULL) == MORRIS_OK, where, "an empty batch");
  fails_with(morris_probe_many_bits(db, NULL, 3, out, NULL), MORRIS_BAD_INPUT, where, "NULL");
  int32_t wdl;
  fails_with(morris_probe_wdl_bits(db, &items[bad_at], &wdl), MORRIS_BAD_INPUT, where, "bit 31");
  fails_with(morris_probe_wdl_bits(db, &items[0], NULL), MORRIS_BAD_INPUT, where, "NULL");
  char small[4], sectors[4096];
  fails_with(morris_sectors(db, small, sizeof small), MORRIS_BUFFER, where, "bytes");
  rc = morris_sectors(db, sectors, sizeof sectors);
  check(rc == MORRIS_OK && strstr(sectors, " 3-3-0-0 ") != NULL &&
            strncmp(sectors, "0-0-", 4) == 0,
        where, "morris_sectors: %d %s", rc, rc == MORRIS_OK ? sectors : morris_last_error());
  for (uint64_t cache = 0; cache <= (1u << 16); cache += 1u << 16) {
    morris_db *sized = morris_open_sized(path, variant, "", cache);
    if (!check(sized != NULL, where, "morris_open_sized %llu: %s", (unsigned long long)cache,
               morris_last_error()))
      continue;
    morris_value *again = calloc(bad_at, sizeof *again);
    rc = morris_probe_many_bits(sized, items, bad_at, again, NULL);
    check(rc == MORRIS_OK && memcmp(again, out, bad_at * sizeof *again) == 0, where,
          "morris_open_sized %llu answers otherwise: %d %s", (unsigned long long)cache, rc,
          morris_last_error());
    free(again);
    morris_close(sized);
  }
  /* The folder twice over reads as the folder; no folder is refused. */
  const char *twice[2] = {path, path};
  morris_db *both = morris_open_folders(twice, 2, variant, "", 0);
  if (check(both != NULL, where, "morris_open_folders: %s", morris_last_error())) {
    morris_value *again = calloc(bad_at, sizeof *again);
    rc = morris_probe_many_bits(both, items, bad_at, again, NULL);
    check(rc == MORRIS_OK && memcmp(again, out, bad_at * sizeof *again) == 0, where,
          "morris_open_folders answers otherwise: %d %s", rc, morris_last_error());
    free(again);
    morris_close(both);
  }
  check(morris_open_folders(twice, 0, variant, "", 0) == NULL &&
            morris_last_status() == MORRIS_BAD_INPUT,
        where, "morris_open_folders of no folder: %s", morris_last_error());
  free(items);
  free(out);
  free(statuses);
  morris_close(db);
}

/* ---- main ------------------------------------------------------------------------------ */

static void run_folder(const char *path, const char *variant, size_t n, char **inputs,
                       const expected *answers) {
  static folder f;
  f.label = path;
  f.db = morris_open(path, variant, "");
  if (!check(f.db != NULL, path, "morris_open: %s", morris_last_error())) return;
  int points = morris_point_count(f.db);
  check(points > 0 && points <= MORRIS_MAX_POINTS, path, "%d points", points);
  for (int i = 0; i < points; i++)
    check(morris_point_name(f.db, i, f.names[i], sizeof f.names[i]) == MORRIS_OK, path,
          "point %d: %s", i, morris_last_error());
  long before = atomic_load(&failed);
  for (size_t i = 0; i < n; i++) check_position(&f, i + 1, inputs[i], &answers[i], 1);
  check_errors(&f);
  probe_threads(&f, n, inputs, answers);
  printf("%s: %zu positions, %ld failures\n", path, n, atomic_load(&failed) - before);
  morris_close(f.db);
}

/* ---- files read by the caller (morris_open_reader) --------------------------------- */

#define MAX_FILES 4096

typedef struct {
  const char *root;
  atomic_int fail; /* every read fails while set */
  atomic_long reads;
} reader_ctx;

/* morris_read_fn: pread of ROOT/NAME; -1 while told to fail, -2 and -3 when the file fails. */
static int read_file(void *context, const char *name, uint64_t offset, uint8_t *buf,
                     size_t len) {
  reader_ctx *c = context;
  atomic_fetch_add(&c->reads, 1);
  if (atomic_load(&c->fail)) return -1;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", c->root, name);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -2;
  size_t done = 0;
  while (done < len) {
    ssize_t r = pread(fd, buf + done, len - done, (off_t)(offset + done));
    if (r <= 0) {
      close(fd);
      return -3;
    }
    done += (size_t)r;
  }
  close(fd);
  return 0;
}

/* The regular files of ROOT's subfolders, as "SUBFOLDER/NAME" with their lengths. */
static size_t list_files(const char *root, char **names, uint64_t *lengths) {
  size_t count = 0;
  DIR *top = opendir(root);
  if (!top) return 0;
  struct dirent *d;
  while ((d = readdir(top))) {
    if (d->d_name[0] == '.') continue;
    char sub[2048];
    snprintf(sub, sizeof sub, "%s/%s", root, d->d_name);
    DIR *in = opendir(sub);
    if (!in) continue;
    struct dirent *e;
    while ((e = readdir(in)) && count < MAX_FILES) {
      char file[4096];
      snprintf(file, sizeof file, "%s/%s", sub, e->d_name);
      struct stat st;
      if (e->d_name[0] == '.' || stat(file, &st) || !S_ISREG(st.st_mode)) continue;
      char rel[1024];
      snprintf(rel, sizeof rel, "%s/%s", d->d_name, e->d_name);
      names[count] = strdup(rel);
      lengths[count++] = (uint64_t)st.st_size;
    }
    closedir(in);
  }
  closedir(top);
  return count;
}

static void run_reader(const char *path, size_t n, char **inputs, const expected *answers) {
  static char *names[MAX_FILES];
  static uint64_t lengths[MAX_FILES];
  static folder f;
  static char label[1100];
  snprintf(label, sizeof label, "%s (read by the caller)", path);
  f.label = label;
  size_t count = list_files(path, names, lengths);
  const char *const *given = (const char *const *)names;
  reader_ctx ctx = {path, 0, 0};
  /* No variant named: the one rule set the names hold. */
  f.db = morris_open_reader(given, lengths, count, read_file, &ctx, NULL, NULL);
  if (!check(f.db != NULL, label, "morris_open_reader: %s", morris_last_error())) return;
  int points = morris_point_count(f.db);
  for (int i = 0; i < points; i++)
    check(morris_point_name(f.db, i, f.names[i], sizeof f.names[i]) == MORRIS_OK, label,
          "point %d: %s", i, morris_last_error());
  long before = atomic_load(&failed);
  for (size_t i = 0; i < n; i++) check_position(&f, i + 1, inputs[i], &answers[i], 0);
  probe_threads(&f, n, inputs, answers);
  check(atomic_load(&ctx.reads) > 0, label, "the read function was never called");
  morris_close(f.db);
  /* A read function that fails: the handle opens (names and lengths are all it needs), and a
     probe that must read is MORRIS_IO, naming the function's code. */
  reader_ctx failing = {path, 1, 0};
  morris_db *db = morris_open_reader(given, lengths, count, read_file, &failing, "six", NULL);
  if (check(db != NULL, label, "morris_open_reader (failing): %s", morris_last_error())) {
    morris_value v;
    int rc = morris_probe_text(db, inputs[0], &v);
    check(rc == MORRIS_IO && strstr(morris_last_error(), "returned -1"), label,
          "a failing read: %d %s", rc, morris_last_error());
    morris_close(db);
  }
  check(morris_open_reader(given, lengths, count, NULL, &ctx, "six", NULL) == NULL &&
            morris_last_status() == MORRIS_BAD_INPUT,
        label, "a NULL read function: %s", morris_last_error());
  check(morris_open_reader(NULL, lengths, count, read_file, &ctx, "six", NULL) == NULL &&
            morris_last_status() == MORRIS_BAD_INPUT,
        label, "NULL names: %s", morris_last_error());
  check(morris_open_reader(given, lengths, 0, read_file, &ctx, "six", NULL) == NULL &&
            morris_last_status() == MORRIS_MISSING,
        label, "no files: %d %s", morris_last_status(), morris_last_error());
  for (size_t i = 0; i < count; i++) free(names[i]);
  printf("%s: %zu files, %zu positions, %ld failures\n", label, count, n,
         atomic_load(&failed) - before);
}

static void usage(void) {
  fprintf(stderr,
          "usage: probe [--variant NAME] --positions FILE --expected FILE FOLDER... "
          "[--partial FOLDER] [--damaged FOLDER] [--wdl-only FOLDER]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *variant = "six", *positions = NULL, *answers_path = NULL;
  const char *partial = NULL, *damaged = NULL, *wdl_only = NULL;
  const char *folders[16];
  int nfolders = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has = i + 1 < argc;
    if (!strcmp(a, "--variant") && has) variant = argv[++i];
    else if (!strcmp(a, "--positions") && has) positions = argv[++i];
    else if (!strcmp(a, "--expected") && has) answers_path = argv[++i];
    else if (!strcmp(a, "--partial") && has) partial = argv[++i];
    else if (!strcmp(a, "--damaged") && has) damaged = argv[++i];
    else if (!strcmp(a, "--wdl-only") && has) wdl_only = argv[++i];
    else if (a[0] != '-' && nfolders < 16) folders[nfolders++] = a;
    else usage();
  }
  if (!positions || !answers_path || !nfolders) usage();
  printf("libmorris %s\n", morris_version());

  size_t n, m;
  char **inputs = read_lines(positions, &n);
  char **lines = read_lines(answers_path, &m);
  if (n != m || n == 0) {
    fprintf(stderr, "%s has %zu lines, %s %zu\n", positions, n, answers_path, m);
    return 2;
  }
  expected *answers = calloc(n, sizeof *answers);
  for (size_t i = 0; i < n; i++) {
    answers[i].input = inputs[i];
    if (!jobject(lines[i], &answers[i], answer_member)) {
      fprintf(stderr, "%s line %zu: cannot read %s\n", answers_path, i + 1, lines[i]);
      return 2;
    }
  }

  for (int k = 0; k < nfolders; k++) run_folder(folders[k], variant, n, inputs, answers);
  for (int k = 0; k < nfolders; k++) run_reader(folders[k], n, inputs, answers);
  for (int k = 0; k < nfolders; k++) check_batch(folders[k], variant, n, answers);
  check_open_errors(variant, folders[0]);
  if (partial) check_partial(partial, variant);
  if (damaged) check_damaged(damaged, variant);
  if (wdl_only) check_wdl_only(wdl_only, variant, n, answers);

  long ok = atomic_load(&passed), bad = atomic_load(&failed);
  printf("%ld passed, %ld failed\n", ok, bad);
  return bad ? 1 : 0;
}
