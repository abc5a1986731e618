/* Probe speed of the C library on a sample of positions, the same sample that `python
 * python/bench.py FOLDER --write-sample FILE` writes and `cargo bench --bench tables` reads
 * (MORRIS_SAMPLE), so that the three doors are timed on the same positions:
 *
 *   bench FOLDER VARIANT SAMPLE
 *
 * SAMPLE holds one position a line: `white black white_hand black_hand turn` (bitboards as
 * morris_probe_bits takes them, turn 0 for White), or a position in notation (converted by
 * morris_position_bits before the timing starts). It prints, per call, positions a second and
 * the time per position: morris_probe_bits one at a time and morris_probe_many_bits as one
 * batch, each cold (the first pass over a freshly opened handle) and warm (the best of three
 * more), and morris_probe_wdl_bits warm. Exits non-zero when a probe fails. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "morris.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void report(const char *what, size_t n, double seconds) {
  printf("%-44s %12.0f positions/s %9.3f us each\n", what, (double)n / seconds, seconds * 1e6 / (double)n);
}

static void die(const char *what) {
  fprintf(stderr, "bench: %s: %s\n", what, morris_last_error());
  exit(1);
}

/* One pass of morris_probe_bits over the sample; its seconds. */
static double one_at_a_time(const struct morris_db *db, const morris_bits *p, size_t n) {
  double start = now();
  for (size_t i = 0; i < n; i++) {
    morris_value v;
    if (morris_probe_bits(db, p[i].white, p[i].black, p[i].white_hand, p[i].black_hand, p[i].side_to_move, &v) !=
        MORRIS_OK)
      die("morris_probe_bits");
  }
  return now() - start;
}

static double batch(const struct morris_db *db, const morris_bits *p, size_t n, morris_value *out) {
  double start = now();
  if (morris_probe_many_bits(db, p, n, out, NULL) != MORRIS_OK) die("morris_probe_many_bits");
  return now() - start;
}

static double wdl(const struct morris_db *db, const morris_bits *p, size_t n) {
  double start = now();
  for (size_t i = 0; i < n; i++) {
    int32_t v;
    if (morris_probe_wdl_bits(db, &p[i], &v) != MORRIS_OK) die("morris_probe_wdl_bits");
  }
  return now() - start;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench FOLDER VARIANT SAMPLE\n");
    return 2;
  }
  struct morris_db *db = morris_open(argv[1], argv[2], NULL);
  if (!db) die("morris_open");
  FILE *f = fopen(argv[3], "r");
  if (!f) {
    perror(argv[3]);
    return 1;
  }
  size_t n = 0, cap = 1024;
  morris_bits *p = malloc(cap * sizeof *p);
  char line[256];
  while (p && fgets(line, sizeof line, f)) {
    unsigned long w, b, wh, bh, turn;
    morris_bits bits;
    if (sscanf(line, "%lu %lu %lu %lu %lu", &w, &b, &wh, &bh, &turn) == 5) {
      bits = (morris_bits){(uint32_t)w, (uint32_t)b, (uint8_t)wh, (uint8_t)bh, (int)turn};
    } else {
      line[strcspn(line, "\r\n")] = 0;
      if (morris_position_bits(db, line, &bits.white, &bits.black, &bits.white_hand, &bits.black_hand,
                               &bits.side_to_move) != MORRIS_OK)
        die(line);
    }
    if (n == cap) {
      cap *= 2;
      p = realloc(p, cap * sizeof *p);
      if (!p) break;
    }
    p[n++] = bits;
  }
  fclose(f);
  morris_close(db);
  if (n == 0 || !p) {
    fprintf(stderr, "bench: no positions in %s\n", argv[3]);
    return 1;
  }
  morris_value *out = malloc(n * sizeof *out);
  printf("%zu positions of %s from %s\n", n, argv[2], argv[1]);
  fflush(stdout);

  db = morris_open(argv[1], argv[2], NULL);
  if (!db) die("morris_open");
  report("morris_probe_bits, cold", n, one_at_a_time(db, p, n));
  double best = 1e30;
  for (int r = 0; r < 3; r++) {
    double s = one_at_a_time(db, p, n);
    if (s < best) best = s;
  }
  report("morris_probe_bits, warm", n, best);
  best = 1e30;
  for (int r = 0; r < 3; r++) {
    double s = wdl(db, p, n);
    if (s < best) best = s;
  }
  report("morris_probe_wdl_bits, warm", n, best);
  morris_close(db);

  db = morris_open(argv[1], argv[2], NULL);
  if (!db) die("morris_open");
  report("morris_probe_many_bits (one batch), cold", n, batch(db, p, n, out));
  best = 1e30;
  for (int r = 0; r < 3; r++) {
    double s = batch(db, p, n, out);
    if (s < best) best = s;
  }
  report("morris_probe_many_bits (one batch), warm", n, best);
  morris_close(db);
  free(out);
  free(p);
  return 0;
}
