//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/meshrig/meshrig/batch"
)

// batchLibrary generates 8 small characters and writes a manifest of
// them, with iterations and bones cut to keep each item under a second.
func batchLibrary(t *testing.T) (dir string, ids []string) {
	t.Helper()
	dir = t.TempDir()
	kinds := []string{"snake", "snake", "snake", "hand", "hand", "biped", "biped", "quadruped"}
	var lines []string
	for k, kind := range kinds {
		id := fmt.Sprintf("%s-%d", kind, k)
		if _, err := run(t, "gen", kind, "-o", filepath.Join(dir, "lib", id), "--frames", "5", "--vertices", "200", "--seed", fmt.Sprint(k+1)); err != nil {
			t.Fatal(err)
		}
		method := "ledeng"
		if k%3 == 2 {
			method = "face-clustering"
		}
		lines = append(lines, fmt.Sprintf(`{"id":%q,"input":"lib/%s","iterations":2,"init_bones":12,"method":%q}`, id, id, method))
		ids = append(ids, id)
	}
	writeFile(t, filepath.Join(dir, "lib.jsonl"), strings.Join(lines, "\n")+"\n")
	return dir, ids
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

var itemLine = regexp.MustCompile(`(?m)^\[\d+/\d+\] (done|skipped|FAILED) +(\S+)`)

// settled maps each item a batch run printed to how it ended.
func settled(t *testing.T, out string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, l := range itemLine.FindAllStringSubmatch(out, -1) {
		if _, twice := m[l[2]]; twice {
			t.Errorf("%s settled twice:\n%s", l[2], out)
		}
		m[l[2]] = l[1]
	}
	return m
}

// noTemps fails when a temporary file is left anywhere under dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("partial output left: %s", p)
		}
		return nil
	})
}

func readReportFiles(t *testing.T, out string) map[string]string {
	t.Helper()
	m := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(out, "reports", "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m[strings.TrimSuffix(filepath.Base(f), ".json")] = string(b)
	}
	return m
}

// TestBatchShards: 8 items as 3 shards in separate processes — each item
// done by exactly the shard the deal gives it, the outputs are the
// manifest, batch report's totals add up; a rerun skips everything, and
// a rerun after one input changed redoes exactly that item.
func TestBatchShards(t *testing.T) {
	dir, ids := batchLibrary(t)
	out := filepath.Join(dir, "out")
	var runs []func() proc
	for i := 0; i < 3; i++ {
		cmd, o, e := startMain(t, dir, "batch", "lib.jsonl", "-o", "out", "--shard", fmt.Sprintf("%d/3", i))
		runs = append(runs, func() proc { return wait(t, cmd, o, e, 5*time.Minute) })
	}
	items, err := batch.ReadManifest(filepath.Join(dir, "lib.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	doneBy := map[string]int{}
	for i, wait := range runs {
		p := wait()
		if p.code != 0 {
			t.Fatalf("shard %d/3: exit %d\n%s%s", i, p.code, p.stdout, p.stderr)
		}
		var want []string
		for _, it := range (batch.Shard{Index: i, Count: 3}).Items(items) {
			want = append(want, it.ID)
		}
		var got []string
		for id, how := range settled(t, p.stdout) {
			if how != "done" {
				t.Errorf("shard %d: %s %s", i, id, how)
			}
			doneBy[id]++
			got = append(got, id)
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("shard %d/3 did %v, its share is %v", i, got, want)
		}
	}
	if len(doneBy) != len(ids) {
		t.Errorf("%d items done, the manifest has %d: %v", len(doneBy), len(ids), doneBy)
	}
	// The outputs are the manifest: one rig and one report per item.
	rigs, _ := filepath.Glob(filepath.Join(out, "*"))
	var names []string
	for _, r := range rigs {
		names = append(names, filepath.Base(r))
	}
	var want []string
	for _, id := range ids {
		want = append(want, id+".glb")
	}
	want = append(want, "reports")
	sort.Strings(want)
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("output folder holds %v, want %v", names, want)
	}
	noTemps(t, out)

	// batch report's totals are the reports' sums.
	text, err := run(t, "batch", "report", out, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var merged struct {
		Summary batch.Summary  `json:"summary"`
		Items   []batch.Report `json:"items"`
	}
	if err := json.Unmarshal([]byte(text), &merged); err != nil {
		t.Fatal(err)
	}
	s := merged.Summary
	var secs, cpu, frames float64
	for _, r := range merged.Items {
		secs, cpu, frames = secs+r.Seconds, cpu+r.CPUSeconds, frames+float64(r.Frames)
		if r.Status != batch.StatusDone || r.Bones < 1 || r.RMSEPercent <= 0 || r.RMSEPercent > 5 || r.PeakMB < 1 || r.CPUSeconds <= 0 ||
			r.Vertices < 1000 || r.Frames != 5 || !strings.HasPrefix(r.Digest, "sha256:") || !strings.HasPrefix(r.Version, "meshrig ") {
			t.Errorf("report %+v", r)
		}
		// The memory model bounds what the item took.
		if r.PeakMB > r.EstimateMB {
			t.Errorf("%s: peak %.1f MiB over the model's %.1f", r.ID, r.PeakMB, r.EstimateMB)
		}
	}
	if s.Items != 8 || s.Done != 8 || s.Failed != 0 || len(s.Shards) != 3 || s.Frames != 40 || frames != 40 ||
		fmt.Sprintf("%.6f %.6f", s.Seconds, s.CPUSeconds) != fmt.Sprintf("%.6f %.6f", secs, cpu) {
		t.Errorf("summary %+v; sums: %v s, %v CPU s", s, secs, cpu)
	}
	table, _ := run(t, "batch", "report", out)
	if !strings.Contains(table, "items 8: 8 done, 0 failed (shards [0/3 1/3 2/3])") {
		t.Errorf("report table:\n%s", table)
	}

	// A rerun of all shards at once skips every item; after one input
	// changed, it redoes exactly that item.
	before := readReportFiles(t, out)
	p := runMain(t, dir, "batch", "lib.jsonl", "-o", "out", "--jobs", "2")
	if got := settled(t, p.stdout); p.code != 0 || len(got) != 8 || strings.Contains(fmt.Sprint(got), "done") {
		t.Fatalf("rerun: exit %d, %v\n%s", p.code, got, p.stderr)
	}
	changed := ids[3]
	frame := filepath.Join(dir, "lib", changed, "frame-0003.obj")
	b, err := os.ReadFile(frame)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, frame, strings.Replace(string(b), "v ", "v 0.001", 0)+"# touched\n")
	p = runMain(t, dir, "batch", "lib.jsonl", "-o", "out", "--jobs", "2")
	got := settled(t, p.stdout)
	if p.code != 0 || got[changed] != "done" {
		t.Fatalf("after changing %s: exit %d, %v\n%s", changed, p.code, got, p.stderr)
	}
	after := readReportFiles(t, out)
	for _, id := range ids {
		if id != changed && (got[id] != "skipped" || after[id] != before[id]) {
			t.Errorf("%s: %s, report changed %v", id, got[id], after[id] != before[id])
		}
	}
	if after[changed] == before[changed] {
		t.Errorf("%s: report not rewritten", changed)
	}
}

// TestBatchKilledAndFailures: a shard stopped by SIGTERM mid-item leaves
// no partial output; its rerun finishes the rest without redoing the
// finished items, and reports a corrupt item and a missing one while the
// others succeed (exit status 1).
func TestBatchKilledAndFailures(t *testing.T) {
	dir, ids := batchLibrary(t)
	os.MkdirAll(filepath.Join(dir, "lib", "corrupt"), 0o755)
	writeFile(t, filepath.Join(dir, "lib", "corrupt", "frame-0001.obj"), "v 0 0 0\nv 1 0 0\nf 1 2 9\n")
	writeFile(t, filepath.Join(dir, "lib", "corrupt", "frame-0002.obj"), "v 0 0 0\nv oops\n")
	m, _ := os.ReadFile(filepath.Join(dir, "lib.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(m)), "\n")[:4]
	lines = append(lines, `{"id":"corrupt","input":"lib/corrupt"}`, `{"id":"missing","input":"lib/not-there"}`)
	writeFile(t, filepath.Join(dir, "small.jsonl"), strings.Join(lines, "\n")+"\n")

	cmd := exec.Command(os.Args[0], "batch", "small.jsonl", "-o", "out", "--jobs", "1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MESHRIG_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The first line settles an item (ids sorted: corrupt first); stop
	// the shard once a rig is done, while the next item runs.
	var first strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		first.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), " done ") {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	for sc.Scan() {
		first.WriteString(sc.Text() + "\n")
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("stopped shard: %v, want exit %d\n%s", err, exitInterrupted, first.String())
	}
	out := filepath.Join(dir, "out")
	noTemps(t, out)
	before := readReportFiles(t, out)
	finished := settled(t, first.String())
	doneFirst := 0
	for id, how := range finished {
		if how == "done" {
			doneFirst++
			if _, ok := before[id]; !ok {
				t.Errorf("%s done without a report", id)
			}
		}
	}
	if doneFirst == 0 || doneFirst == 4 {
		t.Fatalf("stopped after %d of 4 rigs; want mid-run:\n%s", doneFirst, first.String())
	}
	rigs, _ := filepath.Glob(filepath.Join(out, "*.glb"))
	if len(rigs) != doneFirst {
		t.Errorf("%d rigs after the stop, %d items done: %v", len(rigs), doneFirst, rigs)
	}

	p := runMain(t, dir, "batch", "small.jsonl", "-o", "out", "--jobs", "1")
	got := settled(t, p.stdout)
	if p.code != 1 || got["corrupt"] != "FAILED" || got["missing"] != "FAILED" {
		t.Fatalf("rerun: exit %d, %v\n%s%s", p.code, got, p.stdout, p.stderr)
	}
	if !strings.Contains(p.stdout, "missing  input "+filepath.Join(dir, "lib", "not-there")+": no such file or folder") ||
		!strings.Contains(p.stdout, "corrupt  ") || !strings.Contains(p.stderr, "2 of 6 items failed") {
		t.Errorf("failures not reported:\n%s%s", p.stdout, p.stderr)
	}
	after := readReportFiles(t, out)
	for _, id := range ids[:4] {
		want := "done"
		if finished[id] == "done" {
			want = "skipped"
			if after[id] != before[id] {
				t.Errorf("%s redone", id)
			}
		}
		if got[id] != want {
			t.Errorf("%s: %s, want %s", id, got[id], want)
		}
	}
	noTemps(t, out)
}

// rigChildren lists the processes running `rig` with an output in dir.
func rigChildren(dir string) []int {
	var pids []int
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		args := strings.Split(string(b), "\x00")
		if err != nil || !slices.Contains(args, "rig") {
			continue
		}
		if i := slices.Index(args, "-o"); i >= 0 && i+1 < len(args) && strings.HasPrefix(args[i+1], dir) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestBatchSIGKILL: a shard killed outright (the OOM killer, a pod's
// grace period over) takes its running child with it (SIGTERM through
// Pdeathsig: the child removes its temporary file); the rerun redoes
// nothing finished and leaves no partial output.
func TestBatchSIGKILL(t *testing.T) {
	dir, ids := batchLibrary(t)
	m, _ := os.ReadFile(filepath.Join(dir, "lib.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(m)), "\n")
	writeFile(t, filepath.Join(dir, "three.jsonl"), strings.Join([]string{lines[5], lines[6], lines[7]}, "\n")+"\n")
	out := filepath.Join(dir, "out")
	cmd := exec.Command(os.Args[0], "batch", "three.jsonl", "-o", out, "--jobs", "1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MESHRIG_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var first strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		first.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), " done ") {
			break
		}
	}
	// Kill the shard once the next item's child runs.
	var running []int
	for wait := time.Now().Add(time.Minute); len(running) == 0 && time.Now().Before(wait); time.Sleep(5 * time.Millisecond) {
		running = rigChildren(out)
	}
	if len(running) == 0 {
		t.Fatal("the next item's child never started")
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(2 * time.Minute)
	for len(rigChildren(out)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("rig children %v outlived their killed shard", rigChildren(out))
		}
		time.Sleep(50 * time.Millisecond)
	}
	noTemps(t, out)
	finished := settled(t, first.String())
	before := readReportFiles(t, out)
	rigs, _ := filepath.Glob(filepath.Join(out, "*.glb"))
	// The child, killed as it started an item of a second or more, wrote
	// no rig: one rig, one report.
	if len(finished) != 1 || len(before) != 1 || len(rigs) != 1 {
		t.Fatalf("after the kill: settled %v, reports %d, rigs %v", finished, len(before), rigs)
	}
	p := runMain(t, dir, "batch", "three.jsonl", "-o", out)
	got := settled(t, p.stdout)
	if p.code != 0 || len(got) != 3 {
		t.Fatalf("rerun: exit %d %v\n%s", p.code, got, p.stderr)
	}
	for _, id := range ids[5:] {
		want := "done"
		if finished[id] == "done" {
			want = "skipped"
		}
		if got[id] != want {
			t.Errorf("%s: %s, want %s", id, got[id], want)
		}
	}
	noTemps(t, out)
}
