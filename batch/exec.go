package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Exec rigs each item in a child process, `Path rig INPUT... -o OUT
// --report -` with the item's options as flags. A child per item, rather
// than the pipeline called in this process, is the design because:
//   - an item that runs out of memory is killed alone (by the kernel or
//     the container's limit) and reported failed while the others go on;
//     in one process it would take the whole shard down;
//   - each item's peak memory and CPU time are the child's own
//     (getrusage of the child), what the memory model is measured on;
//   - the Go heap of a finished item goes back to the system at once;
//   - `meshrig rig`'s own atomic writes and Ctrl-C handling apply: the
//     child stops on SIGTERM and removes its temporary files, and on
//     Linux it gets SIGTERM when the batch process dies (Pdeathsig), so a
//     killed shard leaves no orphan writing.
//
// A process start and the item's files read twice (once hashed here)
// are its cost: milliseconds against an item's seconds.
type Exec struct {
	// Path is the meshrig binary (os.Executable() in meshrig itself).
	Path string
	// Env is the child's environment (nil: this process's).
	Env []string
	// Grace is how long a child may take to stop after SIGTERM before
	// it is killed (10 s when 0).
	Grace time.Duration
}

// Args is the `meshrig rig` command line of a job, without the binary.
func (j Job) Args() []string {
	o := j.Item.Rig
	a := []string{"rig"}
	a = append(a, j.Item.Inputs...)
	a = append(a, "-o", j.Output, "--report", "-", "--quiet")
	str := func(flag, v string) {
		if v != "" {
			a = append(a, flag, v)
		}
	}
	num := func(flag string, v int) {
		if v != 0 {
			a = append(a, flag, strconv.Itoa(v))
		}
	}
	str("--method", o.Method)
	num("--bones", o.Bones)
	str("--skeleton", o.Skeleton)
	str("--rest", o.Rest)
	if o.FPS != 0 {
		a = append(a, "--fps", strconv.FormatFloat(o.FPS, 'g', -1, 64))
	}
	str("--frames", o.Frames)
	str("--clip", o.Clip)
	num("--iterations", o.Iterations)
	num("--init-bones", o.InitBones)
	num("--max-influences", o.MaxInfluences)
	if o.Seed != 0 {
		a = append(a, "--seed", strconv.FormatUint(o.Seed, 10))
	}
	str("--search", o.Search)
	if o.Stretch {
		a = append(a, "--stretch")
	}
	if o.Fast {
		a = append(a, "--fast")
	}
	return a
}

// Run runs the child and reads its report.
func (e Exec) Run(ctx context.Context, job Job) (Result, error) {
	cmd := exec.CommandContext(ctx, e.Path, job.Args()...)
	cmd.Env = e.Env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Cancel = func() error { return terminate(cmd.Process) }
	cmd.WaitDelay = e.Grace
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = 10 * time.Second
	}
	setParentDeath(cmd)
	defer lockThread()()
	err := cmd.Run()
	res := usage(cmd.ProcessState)
	if err != nil {
		if ctx.Err() != nil {
			return res, context.Cause(ctx)
		}
		return res, childError(err, errb.String())
	}
	rep, err := parseReport(out.Bytes())
	if err != nil {
		return res, err
	}
	res.Vertices, res.Frames, res.Bones, res.Joints = rep.Vertices, rep.Frames, rep.Bones, rep.Joints
	res.RMSEPercent, res.MaxPercent = rep.RMSEPercent, rep.MaxPercent
	return res, nil
}

// childError is the child's own one-line message, or how it died.
func childError(err error, stderr string) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && !ee.Exited() {
		if killed(ee.ProcessState) {
			return fmt.Errorf("killed (SIGKILL: out of memory?)")
		}
		return fmt.Errorf("ended by %v", ee.ProcessState)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for k := len(lines) - 1; k >= 0; k-- {
		if msg, ok := strings.CutPrefix(lines[k], "meshrig: "); ok {
			return errors.New(msg)
		}
	}
	return err
}

// rigReport is the part of `meshrig rig --report` that batch keeps.
type rigReport struct {
	Vertices    int     `json:"vertices"`
	Frames      int     `json:"frames"`
	Bones       int     `json:"bones"`
	Joints      int     `json:"joints"`
	RMSEPercent float64 `json:"rmse_percent"`
	MaxPercent  float64 `json:"max_percent"`
}

// parseReport finds the JSON report `meshrig rig --report -` prints after
// its summary: from the line that is "{" alone.
func parseReport(out []byte) (rigReport, error) {
	var r rigReport
	i := bytes.Index(out, []byte("\n{\n"))
	if i < 0 {
		if !bytes.HasPrefix(out, []byte("{\n")) {
			return r, fmt.Errorf("meshrig rig printed no JSON report")
		}
		i = -1
	}
	if err := json.Unmarshal(out[i+1:], &r); err != nil {
		return r, fmt.Errorf("meshrig rig's JSON report: %w", err)
	}
	return r, nil
}
