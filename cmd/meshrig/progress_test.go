package main

import (
	"errors"
	"fmt"
	"testing"
)

// recorder is a bar that keeps what it was asked to show.
type recorder struct {
	shown   []string
	cleared int
}

func (r *recorder) show(label string, done, total int) {
	r.shown = append(r.shown, fmt.Sprintf("%s %d/%d", label, done, total))
}
func (r *recorder) clear() { r.cleared++ }

// last returns the last state shown of each stage, in order.
func (r *recorder) lastOfEach() []string {
	var out []string
	for i, s := range r.shown {
		if i+1 == len(r.shown) || stageOf(r.shown[i+1]) != stageOf(s) {
			out = append(out, s)
		}
	}
	return out
}

func stageOf(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return s[:i]
		}
	}
	return s
}

// TestStagesEndFull: a stage that stops short (24 of 32 clusters, a fit
// converged after 3 of 15 rounds) is shown full when the next begins and
// when the work ends; work that fails is cleared where it stood.
func TestStagesEndFull(t *testing.T) {
	rec := &recorder{}
	s := &stages{what: "rigging", bar: rec}
	for k := 1; k <= 24; k++ {
		s.update("clustering", k, 32)
	}
	for k := 1; k <= 10; k++ {
		s.update("decomposition", k, 10)
	}
	for k := 1; k <= 3; k++ {
		s.update("skeletal fit", k, 15)
	}
	s.finish(nil)
	want := []string{"rigging: clustering 32/32", "rigging: decomposition 10/10", "rigging: skeletal fit 15/15"}
	got := rec.lastOfEach()
	if fmt.Sprint(got) != fmt.Sprint(want) || rec.cleared != 1 {
		t.Errorf("stages ended as %q (cleared %d), want %q", got, rec.cleared, want)
	}

	rec = &recorder{}
	s = &stages{what: "rigging", bar: rec}
	s.update("clustering", 5, 32)
	s.finish(errors.New("interrupted"))
	if last := rec.shown[len(rec.shown)-1]; last != "rigging: clustering 5/32" || rec.cleared != 1 {
		t.Errorf("failed work ended at %q: a bar filled by a failure would lie", last)
	}
}
