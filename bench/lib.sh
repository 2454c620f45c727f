# Shared by the OpenSees comparisons (opensees_compare.sh, rc_frame_compare.sh); sourced.

# cpu_of COMMAND...: the CPU seconds (user + system) of running COMMAND, its output to run.log;
# -1 when it fails (the CPU time, so that a loaded machine's waiting does not count)
cpu_of() {
    python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=open("run.log", "w"), stderr=subprocess.STDOUT).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (u.ru_utime + u.ru_stime) if r == 0 else "-1")' "$@"
}

# median: the median of the numbers on standard input (-1 when none)
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : -1 }'; }
