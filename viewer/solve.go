package viewer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Solver re-solves r with its skeleton held fixed. For an animation rig
// in is the input: skin weights and joint motion are fitted to it again.
// For a static rig in is nil: the skin is bound to the skeleton again. It
// reports to progress (never nil) and stops with ctx's error when ctx is
// done. It must not modify r.
type Solver func(ctx context.Context, r *rig.Rig, in *seq.Sequence, progress method.Progress) (*rig.Rig, error)

// solveState is GET /api/solve's answer.
type solveState struct {
	Running bool   `json:"running"`
	Stage   string `json:"stage"`
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Error   string `json:"error"`

	cancel context.CancelFunc
}

func (s *Server) postSolve(w http.ResponseWriter, r *http.Request) {
	if !emptyBody(w, r) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.solve.Running {
		fail(w, http.StatusConflict, "a re-solve is already running")
		return
	}
	if err := s.ctx.Err(); err != nil {
		fail(w, http.StatusServiceUnavailable, "the server is stopping")
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.solve = solveState{Running: true, Stage: "starting", cancel: cancel}
	from := s.hist.current().rig
	version := s.hist.version
	s.wg.Add(1)
	go s.runSolve(ctx, s.opt.Solve, from, version)
	writeJSON(w, http.StatusAccepted, map[string]bool{"started": true})
}

func (s *Server) getSolve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	st := s.solve
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, st)
}

// deleteSolve cancels the running re-solve; the rig stays as it was.
func (s *Server) deleteSolve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	st := s.solve
	s.mu.Unlock()
	if !st.Running {
		fail(w, http.StatusBadRequest, "no re-solve is running")
		return
	}
	st.cancel()
	writeJSON(w, http.StatusOK, map[string]bool{"cancelled": true})
}

// runSolve re-solves with solve from (the rig at version) and, when the rig has not
// changed meanwhile, makes the result the current rig: a new version and
// an undo step.
func (s *Server) runSolve(ctx context.Context, solve Solver, from *rig.Rig, version int) {
	defer s.wg.Done()
	start := time.Now()
	var in *seq.Sequence
	if !s.isStatic() {
		in = s.opt.Input
	}
	progress := func(stage string, done, total int) {
		s.mu.Lock()
		s.solve.Stage, s.solve.Done, s.solve.Total = stage, done, total
		s.mu.Unlock()
	}
	out, err := solve(ctx, from, in, progress)
	var st *step
	if err == nil {
		err = checkSolved(from, out)
	}
	if err == nil {
		st, err = s.measure(out)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.solve.cancel()
	if err == nil && s.hist.version != version {
		err = errors.New("the rig changed while it was being solved; solve again")
	}
	if errors.Is(err, context.Canceled) {
		err = errors.New("cancelled")
	}
	secs := time.Since(start).Seconds()
	if err != nil {
		s.solve = solveState{Error: err.Error(), Stage: s.solve.Stage}
		s.logf("re-solve failed after %.1f s: %v", secs, err)
		return
	}
	s.solve = solveState{Stage: "done", Done: 1, Total: 1}
	s.hist.push(st)
	if st.report.RMSE != nil {
		s.logf("re-solve done in %.1f s: RMSE %.4f%%, max %.4f%%", secs, *st.report.RMSE, *st.report.Max)
	} else {
		s.logf("re-solve done in %.1f s", secs)
	}
}

// checkSolved checks a solver kept the skeleton fixed and gave a valid rig.
func checkSolved(from, out *rig.Rig) error {
	if out == nil {
		return errors.New("the solver returned no rig")
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the solver returned an invalid rig: %w", err)
	}
	a, b := from.Skeleton.Joints, out.Skeleton.Joints
	if len(a) != len(b) {
		return fmt.Errorf("the solver changed the skeleton: %d joints, not %d", len(b), len(a))
	}
	for j := range a {
		if a[j].Parent != b[j].Parent || a[j].Name != b[j].Name {
			return fmt.Errorf("the solver changed joint %d (%s)", j, a[j].Name)
		}
	}
	return nil
}
