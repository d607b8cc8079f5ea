package deploy

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/meshrig/meshrig/batch"
)

// horse is horse-gallop's size, the item the Job is sized for.
var horse = batch.Size{Vertices: 8431, Frames: 48}

func readJob(t *testing.T) *batchv1.Job {
	t.Helper()
	b, err := os.ReadFile("kubernetes/job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(b, &job); err != nil {
		t.Fatalf("job.yaml: %v", err)
	}
	return &job
}

// flag returns the value after name in args, "" when absent.
func flag(args []string, name string) string {
	if i := slices.Index(args, name); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// TestJob reads the Job with the Kubernetes API types (unknown fields
// refused) and checks what meshrig batch relies on.
func TestJob(t *testing.T) {
	job := readJob(t)
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" {
		t.Errorf("%s %s: want batch/v1 Job", job.APIVersion, job.Kind)
	}
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatalf("completionMode %v: want Indexed (JOB_COMPLETION_INDEX is the shard)", s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Parallelism < 1 || *s.Parallelism > *s.Completions {
		t.Fatalf("completions %v, parallelism %v", s.Completions, s.Parallelism)
	}
	if s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex < 1 {
		t.Errorf("backoffLimitPerIndex %v: want retries per shard", s.BackoffLimitPerIndex)
	}
	pod := s.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q: backoffLimitPerIndex needs Never", pod.RestartPolicy)
	}
	if s.PodFailurePolicy == nil || len(s.PodFailurePolicy.Rules) == 0 || s.PodFailurePolicy.Rules[0].Action != batchv1.PodFailurePolicyActionFailIndex ||
		s.PodFailurePolicy.Rules[0].OnExitCodes == nil || !slices.Contains(s.PodFailurePolicy.Rules[0].OnExitCodes.Values, 1) {
		t.Errorf("podFailurePolicy %+v: want exit 1 (items failed, reported) to fail the index without retries", s.PodFailurePolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	cmd := c.Command
	if len(cmd) < 5 || cmd[0] != "/meshrig" || cmd[1] != "batch" {
		t.Fatalf("command %q: want /meshrig batch MANIFEST -o OUTDIR …", cmd)
	}
	// The shard count is the Job's completions.
	if n, err := strconv.Atoi(flag(cmd, "--shards")); err != nil || n != int(*s.Completions) {
		t.Errorf("--shards %q, completions %d: they must agree", flag(cmd, "--shards"), *s.Completions)
	}
	// JOB_COMPLETION_INDEX comes from the pod's completion index.
	var index *corev1.EnvVar
	for k := range c.Env {
		if c.Env[k].Name == "JOB_COMPLETION_INDEX" {
			index = &c.Env[k]
		}
	}
	if index == nil || index.ValueFrom == nil || index.ValueFrom.FieldRef == nil ||
		index.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("env JOB_COMPLETION_INDEX %+v: want the completion-index annotation", index)
	}
	// The manifest and the output folder are on one shared, writable volume.
	manifest, out := cmd[2], flag(cmd, "-o")
	if len(c.VolumeMounts) != 1 || len(pod.Volumes) != 1 {
		t.Fatalf("mounts %+v, volumes %+v: want the one shared volume", c.VolumeMounts, pod.Volumes)
	}
	m, v := c.VolumeMounts[0], pod.Volumes[0]
	if m.Name != v.Name || m.ReadOnly || v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName == "" {
		t.Errorf("mount %+v of volume %+v: want a writable PersistentVolumeClaim", m, v)
	}
	for _, p := range []string{manifest, out} {
		if !strings.HasPrefix(p, m.MountPath+"/") {
			t.Errorf("%s is not on the shared volume %s", p, m.MountPath)
		}
	}
	// Memory: --jobs items of horse-gallop's size fit in 90% of the limit
	// (what batch takes from the cgroup), and the request is the limit.
	jobs, err := strconv.Atoi(flag(cmd, "--jobs"))
	if err != nil || jobs < 1 {
		t.Fatalf("--jobs %q", flag(cmd, "--jobs"))
	}
	limit := c.Resources.Limits.Memory()
	need := int64(jobs) * batch.DefaultModel.Estimate(horse)
	if limit.IsZero() || limit.Value()/10*9 < need {
		t.Errorf("memory limit %v: %d items of %d MiB need %d MiB / 0.9", limit, jobs, batch.DefaultModel.Estimate(horse)>>20, need>>20)
	}
	if req := c.Resources.Requests.Memory(); req.Cmp(*limit) != 0 {
		t.Errorf("memory request %v ≠ limit %v: the scheduler should reserve what batch plans with", req, limit)
	}
	if cpu := c.Resources.Requests.Cpu(); cpu.MilliValue() < int64(jobs)*1000 {
		t.Errorf("cpu request %v for --jobs %d", cpu, jobs)
	}
	// The image's binary is the one the command runs.
	docker, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	d := string(docker)
	if !strings.Contains(d, "CGO_ENABLED=0") || !strings.Contains(d, `ENTRYPOINT ["`+cmd[0]+`"]`) || !strings.Contains(d, "-o /out/meshrig ./cmd/meshrig") {
		t.Errorf("Dockerfile: want a static build of ./cmd/meshrig at %s", cmd[0])
	}
}

// TestSlurm checks the array script runs meshrig batch with its array's
// size in the task count meshrig reads, and a memory bound.
func TestSlurm(t *testing.T) {
	b, err := os.ReadFile("slurm/batch.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	arr := regexp.MustCompile(`(?m)^#SBATCH --array=0-(\d+)$`).FindStringSubmatch(s)
	if arr == nil {
		t.Fatal("no #SBATCH --array=0-N")
	}
	if !regexp.MustCompile(`(?m)^#SBATCH --mem=\d+[MG]$`).MatchString(s) {
		t.Error("no #SBATCH --mem: batch bounds its items by the job's memory")
	}
	if !regexp.MustCompile(`(?m)^exec meshrig batch "\$manifest" -o "\$outdir" --jobs `).MatchString(s) {
		t.Error("the script does not run meshrig batch MANIFEST -o OUTDIR --jobs K")
	}
	if strings.Contains(s, "--shard") {
		t.Error("the shard comes from SLURM_ARRAY_TASK_ID/COUNT, not a flag")
	}
}
