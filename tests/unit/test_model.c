/* test_model.c: the model's formulas under a measured table (table=FILE,
 * model_parse.c): a message's time read off the p2p curve between, below
 * and past its points; a collective's from its curve on the measured
 * process count nearest below (else above), scaled by the algorithms'
 * ratio, and from the algorithms where the table has no curve; tables
 * refused with the reason, keeping the one in force; a network between
 * nodes and a placement (nodes=, ppn=, place=): each rank's node, the
 * placements that do not fit, and the collectives priced inside and
 * between the nodes. Every figure is worked out by hand in the comments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-18;
}

static char dir[] = "/tmp/test_model.XXXXXX";

/* A table file named name holding text; its path. */
static const char *table(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        printf("FAIL: cannot write %s\n", path);
        exit(1);
    }
    return path;
}

/* parse "table=<path><rest>" into m: its return. */
static int parse(const char *path, const char *rest, struct prof_model *m)
{
    char text[1024];
    snprintf(text, sizeof text, "table=%s%s", path, rest);
    return prof_model_parse(text, m);
}

/* parse must refuse "table=<path of name holding text>" and say why. */
static void refused(const char *name, const char *text, const char *why)
{
    struct prof_model m;
    CHECK(parse(table(name, text), "", &m) == -1);
    if (!strstr(prof_model_why(), why))
        printf("FAIL: %s: why '%s' lacks '%s'\n", name, prof_model_why(), why), failures++;
}

int main(void)
{
    if (!mkdtemp(dir)) {
        printf("FAIL: mkdtemp\n");
        return 1;
    }
    /* p2p: 1 us at 0 bytes, 11 at 1000, 31 at 2000 (usec). */
    char good[256];
    snprintf(good, sizeof good, "%s", table("good", "# shape processes bytes t_usec\n"
                                     "p2p 2 0 1\np2p 2 1000 11\np2p 2 2000 31\n\n"
                                     "allreduce 2 0 0\nallreduce 2 1000 50\n"
                                     "   # a comment\nallreduce 4 1000 80\nbarrier 2 0 3\n"));
    struct prof_model m;
    CHECK(parse(good, "", &m) == 0 && m.table && strcmp(m.path, good) == 0 && prof_model_why()[0] == '\0');
    /* lat: the time of 0 bytes; T between the points, past the last on
     * the line of the largest sizes (here the last two); bw: theirs, 1000
     * bytes in 20 us (W = 0.02 us a byte). */
    CHECK(near(m.lat, 1e-6) && near(m.bw, 5e7));
    CHECK(near(prof_model_time(&m, 0), 1e-6) && near(prof_model_time(&m, 500), 6e-6));
    CHECK(near(prof_model_time(&m, 1500), 21e-6) && near(prof_model_time(&m, 3000), 51e-6));
    CHECK(near(prof_model_wire(&m, 1000), 20e-6) && near(prof_model_wire(&m, 0), 0));
    /* Allreduce measured on 2 and on 4: as measured there. */
    CHECK(near(prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 2, 1000), 50e-6));
    CHECK(near(prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 2, 500), 25e-6));
    CHECK(near(prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 4, 1000), 80e-6));
    /* On 8: the curve of 4 times the algorithms on 8 over those on 4:
     * on 4, min(2 T(1000), 4 T(0) + 2 W(750)) = min(22, 4 + 30) = 22 us;
     * on 8, min(3 T(1000), 6 T(0) + 2 W(875)) = min(33, 6 + 35) = 33. */
    CHECK(near(prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 8, 1000), 120e-6));
    /* Reduce-scatter and allgather where they are faster: 3200 bytes on 8,
     * min(3 T(3200) = 3 x 55, 6 + 2 W(2800) = 6 + 112) = 118 us; on 4,
     * min(2 x 55, 4 + 2 W(2400) = 100) = 100; the curve of 4 has one
     * point, 80 us at any size. */
    CHECK(near(prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 8, 3200), 80e-6 * 118 / 100));
    /* On 3: the curve of 2 (the most processes not above 3); on 3,
     * min(2 T(1000), 4 T(0) + 2 W(666.7)) = min(22, 30.7) = 22 us, on 2
     * min(T(1000), 2 T(0) + 2 W(500)) = min(11, 22) = 11. */
    CHECK(near(prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 3, 1000), 100e-6));
    /* Barrier, one point: its time at any size; Bcast, no curve: the
     * algorithms, min(T(1000), 2 T(0) + 2 W(500)) = min(11, 22). */
    CHECK(near(prof_model_coll_time(&m, PROF_MC_BARRIER, 2, 0), 3e-6));
    CHECK(near(prof_model_coll_time(&m, PROF_MC_BCAST, 2, 1000), 11e-6));
    CHECK(prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 1, 1000) == 0);
    /* LogGP's overheads on top: T = 2 o + the table's. */
    CHECK(parse(good, ",o=2,eager=0,cpu=0.5", &m) == 0 && near(prof_model_time(&m, 1000), 15e-6) &&
          m.eager == 0 && m.cpu == 0.5);
    CHECK(parse(good, ",TABLE=x", &m) == -1 && parse(good, ",lat=1", &m) == -1 && parse(good, ",bw=1", &m) == -1);
    CHECK(prof_model_parse("perfect,table=/nonexistent", &m) == -1 && prof_model_parse("table=", &m) == -1);
    char text[1024];
    snprintf(text, sizeof text, "TABLE=%s,", good);
    CHECK(prof_model_parse(text, &m) == -1);

    /* Refused, each with its reason; the table in force stays. */
    CHECK(prof_model_parse("table=/nonexistent/t", &m) == -1 &&
          strcmp(prof_model_why(), "cannot read table /nonexistent/t: No such file or directory") == 0);
    refused("short", "p2p 2 0 1\np2p 2 1000\n", "short line 2: expected SHAPE PROCESSES BYTES USEC");
    refused("extra", "p2p 2 0 1 x\n", "extra line 1: expected SHAPE PROCESSES BYTES USEC");
    refused("shape", "p2p 2 0 1\nallreduse 2 0 1\n", "shape line 2: unknown shape (p2p,");
    refused("one", "p2p 1 0 1\n", "one line 1: processes below 2");
    refused("negative", "p2p 2 0 -1\n", "negative line 1: processes below 2, or bytes or time negative");
    refused("order", "p2p 2 0 1\np2p 2 100 2\np2p 2 100 3\n",
            "order line 3: the bytes of p2p on 2 processes do not increase");
    refused("nop2p", "bcast 2 0 1\nbcast 2 10 2\n", "nop2p: no p2p curve of two sizes or more");
    refused("p2pone", "p2p 2 0 1\n", "p2pone: no p2p curve of two sizes or more");
    CHECK(parse(good, "", &m) == 0 && near(prof_model_time(&m, 1500), 21e-6));
    CHECK(parse(table("bad", "p2p 2 0 5\np2p 2 10 4\np2p 2 5 4\n"), "", &m) == -1);
    CHECK(near(m.lat, 1e-6) && near(prof_model_time(&m, 1500), 21e-6));

    /* A curve is read as measured, below its time of 0 bytes too; its
     * largest sizes must rise (8 bytes in 2 us: 4 MB/s). */
    CHECK(parse(table("dip", "p2p 2 0 2\np2p 2 8 1\np2p 2 16 3\n"), "", &m) == 0);
    CHECK(near(prof_model_time(&m, 8), 1e-6) && near(m.bw, 4e6) && near(prof_model_time(&m, 100), 24e-6));
    refused("flat", "p2p 2 0 2\np2p 2 8 1\np2p 2 16 1\n", "flat: the p2p time does not grow over its largest sizes");
    /* Past the largest size: the least-squares line of the sizes from a
     * sixteenth of it up, here 1000 to 4000 bytes (not 0), through one
     * that fell: slope 8000 / 5e6 = 0.0016 us a byte (625 MB/s). */
    CHECK(parse(table("noisy", "p2p 2 0 9\np2p 2 1000 10\np2p 2 2000 12\np2p 2 3000 16\np2p 2 4000 14\n"), "", &m) ==
          0);
    CHECK(near(m.bw, 6.25e8) && near(prof_model_time(&m, 5000), 15.6e-6) && near(prof_model_time(&m, 3500), 15e-6));
    /* A comment longer than a line buffer (mpiprof-calibrate's names its
     * whole mpirun command) is skipped whole; a longer row is refused. */
    char lng[1024];
    snprintf(lng, sizeof lng, "# %0400d\np2p 2 0 1\np2p 2 1000 11\n", 7);
    CHECK(parse(table("longcomment", lng), "", &m) == 0 && near(prof_model_time(&m, 1000), 11e-6));
    snprintf(lng, sizeof lng, "p2p 2 0 1 %0300d\np2p 2 1000 11\n", 7);
    refused("longrow", lng, "longrow line 1: longer than 254 bytes");
    /* perfect: nothing costs. */
    CHECK(prof_model_parse("perfect", &m) == 0 && prof_model_time(&m, 1000) == 0 &&
          prof_model_coll_time(&m, PROF_MC_ALLREDUCE, 4, 1000) == 0);

    /* A network between nodes: 1 us and 1000 MB/s inside a node, 100 us
     * and 10 MB/s between nodes; nodes=2 on 4 ranks: ppn 2, blocks. */
    CHECK(prof_model_parse("lat=1,bw=1000,netlat=100,netbw=10,nodes=2", &m) == 0 && m.net && m.nodes == 2 &&
          m.ppn == 0 && m.place == PROF_PLACE_BLOCK && near(m.net_lat, 100e-6) && near(m.net_bw, 1e7));
    int node_of[8];
    CHECK(prof_model_place(&m, 4, node_of) == 0 && node_of[0] == 0 && node_of[1] == 0 && node_of[2] == 1 &&
          node_of[3] == 1);
    struct prof_model net;
    double between = -1;
    prof_model_net_of(&m, &net);
    /* T inside: 1 + 1000 / 1000 = 2 us; between: 100 + 1000 / 10 = 200 us. */
    CHECK(near(prof_model_time(&m, 1000), 2e-6) && near(prof_model_time(&net, 1000), 200e-6));
    /* One node: the flat algorithms. Barrier on 4 over 2 nodes of 2:
     * 2 barrier(2) + barrier_net(2) = 2 x 1 + 100 us. */
    CHECK(near(prof_model_coll_placed(&m, &net, PROF_MC_BARRIER, 4, 1, 4, 0, NULL),
               prof_model_coll_time(&m, PROF_MC_BARRIER, 4, 0)));
    CHECK(near(prof_model_coll_placed(&m, &net, PROF_MC_BARRIER, 4, 2, 2, 0, NULL), 102e-6));
    /* Allreduce of 1000 bytes: reduce(2) = min(T(1000), 2 T(0) + 2 W(500))
     * = min(2, 3) = 2 us; allreduce_net(2) = min(200, 200 + 100) = 200 us;
     * bcast(2) = min(2, 2 + 1) = 2 us: 204 us. */
    CHECK(near(prof_model_coll_placed(&m, &net, PROF_MC_ALLREDUCE, 4, 2, 2, 1000, &between), 204e-6) &&
          near(between, 200e-6));
    /* Alltoall of 1000 bytes a process: inside, alltoall(2) of its share
     * 500: min(T(250), T(250)) = 1.25 us; between, the node's 2000 bytes
     * through one link: min(T_net(1000), T_net(1000)) = 200 us. */
    CHECK(near(prof_model_coll_placed(&m, &net, PROF_MC_ALLTOALL, 4, 2, 2, 1000, &between), 201.25e-6) &&
          near(between, 200e-6));
    /* Cyclic: 0 2 | 1 3 on 2 nodes; nodes=3 cyclic on 4: 0 1 2 0. */
    CHECK(prof_model_parse("lat=1,bw=1000,netlat=100,netbw=10,nodes=2,place=cyclic", &m) == 0 &&
          prof_model_place(&m, 4, node_of) == 0 && node_of[0] == 0 && node_of[1] == 1 && node_of[2] == 0 &&
          node_of[3] == 1);
    CHECK(prof_model_parse("lat=1,bw=1000,netlat=100,netbw=10,nodes=3,place=cyclic", &m) == 0 &&
          prof_model_place(&m, 4, node_of) == 0 && node_of[3] == 0);
    /* Placements that do not fit 4 ranks, each with its reason. */
    CHECK(prof_model_parse("lat=1,bw=1000,netlat=100,netbw=10,nodes=3", &m) == 0 &&
          prof_model_place(&m, 4, NULL) == -1 && strstr(prof_model_why(), "leaves nodes without ranks"));
    CHECK(prof_model_parse("lat=1,bw=1000,netlat=100,netbw=10,nodes=2,ppn=1", &m) == 0 &&
          prof_model_place(&m, 4, NULL) == -1 && strstr(prof_model_why(), "holds 2 of the job's 4 ranks"));
    CHECK(prof_model_place(&m, 2, node_of) == 0 && node_of[0] == 0 && node_of[1] == 1);
    /* The real nodes (no nodes=): nothing to place here. */
    CHECK(prof_model_parse("lat=1,bw=1000,netlat=100,netbw=10", &m) == 0 && m.net && !m.nodes &&
          prof_model_place(&m, 4, NULL) == 0);
    /* A measured table between nodes: its lat and bw as for table=. */
    CHECK(prof_model_parse("lat=1,bw=1000,nettable=x", &m) == -1);
    snprintf(text, sizeof text, "lat=1,bw=1000,nettable=%s", good);
    CHECK(prof_model_parse(text, &m) == 0 && m.net && m.net_table && near(m.net_lat, 1e-6) && near(m.net_bw, 5e7) &&
          !m.table && near(m.bw, 1e9));
    prof_model_net_of(&m, &net);
    CHECK(near(prof_model_time(&net, 1500), 21e-6) && near(prof_model_time(&m, 1500), 2.5e-6));
    /* The gap g: a table's gap row unless g= is given; between nodes,
     * netg=, else the table between nodes' gap row, else g. */
    const char *gapped = table("gapped", "p2p 2 0 1\np2p 2 1000 11\ngap 2 8 0.25\n");
    snprintf(text, sizeof text, "table=%s", gapped);
    CHECK(prof_model_parse(text, &m) == 0 && near(m.g, 0.25e-6));
    snprintf(text, sizeof text, "table=%s,g=2", gapped);
    CHECK(prof_model_parse(text, &m) == 0 && near(m.g, 2e-6));
    snprintf(text, sizeof text, "table=%s,nettable=%s", good, gapped);
    CHECK(prof_model_parse(text, &m) == 0 && m.g == 0 && near(m.net_g, 0.25e-6));
    prof_model_net_of(&m, &net);
    CHECK(near(net.g, 0.25e-6));
    snprintf(text, sizeof text, "table=%s,nettable=%s,netg=10", gapped, good);
    CHECK(prof_model_parse(text, &m) == 0 && near(m.g, 0.25e-6) && near(m.net_g, 10e-6));
    CHECK(prof_model_parse("lat=1,bw=1000,g=3,netlat=10,netbw=100", &m) == 0 && near(m.net_g, 3e-6));
    CHECK(prof_model_parse("lat=1,bw=1000,netg=3", &m) == -1 && strstr(prof_model_why(), "netg= needs"));
    refused("twogaps", "p2p 2 0 1\np2p 2 1000 11\ngap 2 8 1\ngap 2 8 2\n", "twogaps line 4: a second gap row");
    refused("zerogap", "p2p 2 0 1\np2p 2 1000 11\ngap 2 8 0\n", "zerogap line 3: a gap row needs");
    /* A collective's part between nodes (4 ranks on 2 nodes): by the
     * table between nodes' curve of it, 50 us (allreduce on 2, 1000
     * bytes); where it has none, the algorithms between nodes, min(T_net
     * (1000), 2 T_net(0) + 2 W_net(500)) = min(200, 300) = 200 us, plus the
     * local work of the node's curve beyond the node's algorithms, 50 -
     * min(T(1000), 2 T(0) + 2 W(500)) = 50 - min(11, 22) = 39 us. */
    snprintf(text, sizeof text, "table=%s,nettable=%s,nodes=2", good, good);
    CHECK(prof_model_parse(text, &m) == 0);
    prof_model_net_of(&m, &net);
    CHECK(prof_model_coll_placed(&m, &net, PROF_MC_ALLREDUCE, 4, 2, 2, 1000, &between) > 0 && near(between, 50e-6));
    snprintf(text, sizeof text, "table=%s,netlat=100,netbw=10,nodes=2", good);
    CHECK(prof_model_parse(text, &m) == 0);
    prof_model_net_of(&m, &net);
    CHECK(prof_model_coll_placed(&m, &net, PROF_MC_ALLREDUCE, 4, 2, 2, 1000, &between) > 0 && near(between, 239e-6));

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", dir);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
