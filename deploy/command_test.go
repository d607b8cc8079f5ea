package deploy

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestJobCommandRuns runs the Job's container command as Kubernetes
// would — each completion index in its own process, all at once, with
// the Job's env — against a small generated library where the volume is
// mounted, and checks that the shards together rig every item once; then
// the Slurm script the same way, one process per array task.
func TestJobCommandRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds meshrig and rigs four small characters")
	}
	job := readJob(t)
	c := job.Spec.Template.Spec.Containers[0]
	mount := c.VolumeMounts[0].MountPath
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "meshrig")
	build := exec.Command("go", "build", "-o", bin, "github.com/meshrig/meshrig/cmd/meshrig")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	volume := filepath.Join(tmp, "volume")
	manifest := strings.Replace(c.Command[2], mount, volume, 1)
	var lines []string
	for k, kind := range []string{"snake", "hand", "snake", "biped"} {
		id := fmt.Sprintf("%s%d", kind, k)
		dir := filepath.Join(filepath.Dir(manifest), "lib", id)
		gen := exec.Command(bin, "gen", kind, "-o", dir, "--frames", "4", "--vertices", "200", "--seed", fmt.Sprint(k+1), "-q")
		if out, err := gen.CombinedOutput(); err != nil {
			t.Fatalf("gen: %v\n%s", err, out)
		}
		lines = append(lines, fmt.Sprintf(`{"id":%q,"input":"lib/%s","iterations":2,"init_bones":10}`, id, id))
	}
	if err := os.WriteFile(manifest, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := make([]string, len(c.Command)-1)
	for k, a := range c.Command[1:] {
		args[k] = strings.Replace(a, mount, volume, 1)
	}
	var wg sync.WaitGroup
	for i := 0; i < int(*job.Spec.Completions); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, args...)
			// What the env's fieldRef gives (TestJob checks the Job asks for it).
			cmd.Env = append(os.Environ(), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("index %d: %v\n%s", i, err, out)
			}
		}()
	}
	wg.Wait()
	out, err := exec.Command(bin, "batch", "report", flag(args, "-o"), "--json").Output()
	if err != nil {
		t.Fatalf("batch report: %v\n%s", err, out)
	}
	checkReport(t, out, 4, int(*job.Spec.Completions))

	// The Slurm script, as each array task would run it: meshrig on the
	// PATH, the task's id and count in the environment.
	b, err := os.ReadFile("slurm/batch.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	var tasks int
	if _, err := fmt.Sscanf(string(b)[strings.Index(string(b), "#SBATCH --array=0-"):], "#SBATCH --array=0-%d", &tasks); err != nil {
		t.Fatal(err)
	}
	tasks++
	rigs := filepath.Join(tmp, "slurm-rigs")
	for i := 0; i < tasks; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("bash", "slurm/batch.sbatch", manifest, rigs)
			cmd.Env = append(os.Environ(), "PATH="+tmp+":"+os.Getenv("PATH"), fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i),
				fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", tasks), "SLURM_ARRAY_TASK_MIN=0", "SLURM_CPUS_PER_TASK=2")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("task %d: %v\n%s", i, err, out)
			}
		}()
	}
	wg.Wait()
	out, err = exec.Command(bin, "batch", "report", rigs, "--json").Output()
	if err != nil {
		t.Fatalf("batch report: %v\n%s", err, out)
	}
	checkReport(t, out, 4, tasks)
}

// checkReport reads batch report --json: every item done, by as many
// shards as items (there are more shards than items), each one of count.
func checkReport(t *testing.T, out []byte, items, count int) {
	t.Helper()
	var rep struct {
		Summary struct {
			Items, Done int
			Shards      []string
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Items != items || rep.Summary.Done != items || len(rep.Summary.Shards) != items {
		t.Errorf("after every shard ran: %+v", rep.Summary)
	}
	for _, s := range rep.Summary.Shards {
		if !strings.HasSuffix(s, fmt.Sprintf("/%d", count)) {
			t.Errorf("shard %s: not one of %d", s, count)
		}
	}
}
