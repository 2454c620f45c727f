/* The shm block's guards (issue 17, hole 6 and a restarted plant):
 * - squatting: a block created first by another user (`nobody`, uid 65534, at mode 0666, a valid
 *   header) is refused by both sides, the site's back end (hs_lab_shm_create) and the plant's
 *   (hs_shm_map), with a message that names the owner and the file to remove; naming that user as
 *   lab.owner still refuses it while every user may write it; at mode 0600 it is then accepted.
 *   A block of this user at mode 0666 is refused too; one the back end creates is 0600 and O_EXCL.
 *   The second uid needs root (fork, setuid): skipped with a message otherwise.
 * - a restarted laboratory process: the reply counter goes back (1 after 5) while echoing the
 *   site's command; the site takes no value from it and raises HS_LAB_ST_FAULT with an alarm that
 *   says the process restarted (it used to take the fresh specimen's zeros silently). */
#include "hs_test.h"

#include "hysim/shm_lab.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

static void block_name(char *buf, size_t cap, const char *what)
{
    snprintf(buf, cap, "/hysim-test-%ld-%s", (long)getpid(), what);
}

/* Creates `name` as a valid block for nact actuators, as uid `uid` (a child process when it is
 * not ours), at `mode`; 0 on success. */
static int plant_block(const char *name, uid_t uid, mode_t mode, int nact)
{
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (uid != geteuid() && (setgid(uid) != 0 || setuid(uid) != 0)) _exit(2);
        umask(0);
        const int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, mode);
        if (fd < 0 || fchmod(fd, mode) != 0 || ftruncate(fd, (off_t)sizeof(hs_shm_block)) != 0)
            _exit(3);
        hs_shm_block *b =
            mmap(NULL, sizeof(hs_shm_block), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (b == MAP_FAILED) _exit(4);
        b->version = HS_SHM_VERSION;
        b->nact = (uint32_t)nact;
        b->size = (uint32_t)sizeof(hs_shm_block);
        b->magic = HS_SHM_MAGIC;
        _exit(0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void expect_refused(hs_ctx *ctx, int rc, const char *a, const char *b)
{
    const char *msg = hs_ctx_message(ctx);
    print_message("    refused: %s\n", msg);
    assert_int_equal(rc, HS_EAUTH);
    if (!strstr(msg, a) || !strstr(msg, b)) fail_msg("expected '%s' and '%s' in: %s", a, b, msg);
}

static void test_squatted_block_refused(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("    SKIP: a block of a second user needs root (fork, setuid to %d)\n",
                      NOBODY);
        skip();
    }
    char name[64], file[80];
    block_name(name, sizeof name, "squat");
    snprintf(file, sizeof file, "rm /dev/shm%s", name);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(plant_block(name, NOBODY, 0666, 1), 0);
    hs_lab_shm_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.max_missing = 5;
    hs_lab *lab = NULL;
    /* the site's back end and the plant's side */
    expect_refused(ctx, hs_lab_shm_create(ctx, &c, 1, 1000.0, &lab), "belongs to uid 65534", file);
    assert_null(lab);
    hs_shm_block *b = NULL;
    int created = 0;
    expect_refused(ctx, hs_shm_map(ctx, name, 1, &b, &created), "belongs to uid 65534", file);
    assert_null(b);
    /* nobody named as the laboratory's user: still refused while every user may write it */
    snprintf(c.owner, sizeof c.owner, "%d", NOBODY);
    expect_refused(ctx, hs_lab_shm_create(ctx, &c, 1, 1000.0, &lab), "mode 0666 lets every user",
                   file);
    /* nobody's block at 0600: accepted for the configured owner only */
    assert_int_equal(shm_unlink(name), 0);
    assert_int_equal(plant_block(name, NOBODY, 0600, 1), 0);
    assert_int_equal(hs_lab_shm_create(ctx, &c, 1, 1000.0, &lab), 0);
    hs_lab_destroy(&lab);
    c.owner[0] = '\0';
    expect_refused(ctx, hs_lab_shm_create(ctx, &c, 1, 1000.0, &lab), "belongs to uid 65534", file);
    assert_int_equal(shm_unlink(name), 0);
    hs_ctx_destroy(&ctx);
}

static void test_own_block_open_to_others_refused(void **state)
{
    (void)state;
    char name[64], file[80];
    block_name(name, sizeof name, "open");
    snprintf(file, sizeof file, "rm /dev/shm%s", name);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(plant_block(name, geteuid(), 0662, 1), 0);
    hs_shm_block *b = NULL;
    int created = 0;
    expect_refused(ctx, hs_shm_map(ctx, name, 1, &b, &created), "mode 0662 lets every user", file);
    assert_int_equal(shm_unlink(name), 0);
    assert_int_equal(plant_block(name, geteuid(), 0620, 1), 0);
    expect_refused(ctx, hs_shm_map(ctx, name, 1, &b, &created), "mode 0620 lets its group", file);
    assert_int_equal(shm_unlink(name), 0);
    /* created here: 0600, whatever the umask */
    const mode_t old = umask(0);
    assert_int_equal(hs_shm_map(ctx, name, 1, &b, &created), 0);
    umask(old);
    assert_true(created);
    struct stat st;
    char path[96];
    snprintf(path, sizeof path, "/dev/shm%s", name);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(st.st_uid, geteuid());
    hs_shm_unmap(b, name, created);
    hs_ctx_destroy(&ctx);
}

/* A reply to the current command, as a laboratory process writes it. */
static void reply(hs_shm_block *b, uint64_t counter, double x)
{
    hs_shm_write_begin(&b->reply.seq);
    b->reply.counter = counter;
    b->reply.echo = b->command.counter;
    b->reply.x[0] = x;
    b->reply.f[0] = 2.0 * x;
    hs_shm_write_end(&b->reply.seq);
}

static void test_restarted_plant_detected(void **state)
{
    (void)state;
    char name[64];
    block_name(name, sizeof name, "restart");
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_shm_block *b = NULL;
    int created = 0;
    assert_int_equal(hs_shm_map(ctx, name, 1, &b, &created), 0);
    hs_lab_shm_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.reply_timeout = 1e-4;
    c.max_missing = 1000;
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_shm_create(ctx, &c, 1, 1000.0, &lab), 0);
    double x = 0.0, f = 0.0;
    hs_lab_input in = {.x = &x, .f = &f};
    /* the plant answers the command before the site looks: reply counter k, x = k mm */
    const double cmd[1] = {0.0};
    for (uint64_t k = 1; k <= 5; k++) {
        b->command.counter++; /* the site's next command is this one */
        reply(b, k, (double)k);
        b->command.counter--;
        assert_int_equal(hs_lab_exchange(lab, cmd, &in), 0);
        assert_true(in.x[0] == (double)k);
        assert_int_equal(in.status, 0u);
    }
    /* the process restarts: a fresh specimen at rest, its counter from 1 again */
    b->command.counter++;
    reply(b, 1, 0.0);
    b->command.counter--;
    assert_int_equal(hs_lab_exchange(lab, cmd, &in), 0);
    print_message("    after the restart: x %g (kept), status 0x%x, alarm: %s\n", in.x[0],
                  (unsigned)in.status, hs_lab_alarm(lab));
    assert_true(in.x[0] == 5.0); /* the zeros of the fresh specimen are not taken */
    assert_true(in.status & HS_LAB_ST_FAULT);
    assert_non_null(strstr(hs_lab_alarm(lab), "reply counter went back from 5 to 1"));
    assert_non_null(strstr(hs_lab_alarm(lab), "restarted"));
    hs_lab_destroy(&lab);
    hs_shm_unmap(b, name, created);
    hs_ctx_destroy(&ctx);
}

/* Every block a test may leave behind when an assertion fails. */
static int remove_blocks(void **state)
{
    (void)state;
    static const char *const what[] = {"squat", "open", "restart"};
    for (size_t k = 0; k < sizeof what / sizeof what[0]; k++) {
        char name[64];
        block_name(name, sizeof name, what[k]);
        shm_unlink(name);
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_squatted_block_refused, remove_blocks),
        cmocka_unit_test_teardown(test_own_block_open_to_others_refused, remove_blocks),
        cmocka_unit_test_teardown(test_restarted_plant_detected, remove_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
