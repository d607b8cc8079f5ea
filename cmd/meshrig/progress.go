package main

import (
	"fmt"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress returns a callback that draws long work as a bar on stderr, or
// a no-op when stderr is not a terminal or output is quiet. Each stage a
// method reports shows under its name; finish(nil) ends the bar at 100%
// and clears it, finish(err) clears it and leaves the reason to err.
func (g *globals) progress(what string) (update func(stage string, done, total int), finish func(err error)) {
	if g.quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return func(string, int, int) {}, func(error) {}
	}
	st := &stages{what: what, bar: &termBar{}}
	return st.update, st.finish
}

// stages turns a method's stage reports into one bar. A stage that stops
// short of its total (converged early, clusters merged, bones pruned) is
// filled when the next stage begins or the work ends, so the bar never
// ends at 75% of a stage that is done: the total follows what happened.
type stages struct {
	what        string
	bar         bar
	stage       string
	done, total int
}

// bar is what stages draws on: the terminal, or a recorder in tests.
type bar interface {
	show(label string, done, total int)
	clear()
}

func (s *stages) update(stage string, done, total int) {
	if stage == "" {
		stage = s.what
	}
	if s.stage != "" && stage != s.stage && s.done < s.total {
		s.bar.show(s.label(), s.total, s.total)
	}
	s.stage, s.done, s.total = stage, min(done, total), total
	s.bar.show(s.label(), s.done, s.total)
}

func (s *stages) label() string {
	if s.stage == s.what {
		return s.what
	}
	return s.what + ": " + s.stage
}

func (s *stages) finish(err error) {
	if s.stage == "" {
		return
	}
	if err == nil && s.done < s.total {
		s.bar.show(s.label(), s.total, s.total)
	}
	s.bar.clear()
	s.stage = ""
}

// termBar draws with schollz/progressbar on stderr.
type termBar struct{ pb *progressbar.ProgressBar }

func (t *termBar) show(label string, done, total int) {
	if t.pb == nil {
		t.pb = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100_000_000),
		)
	}
	t.pb.Describe(label)
	t.pb.ChangeMax(total)
	t.pb.Set(done)
}

func (t *termBar) clear() {
	if t.pb != nil {
		t.pb.Finish()
		t.pb.Clear()
		fmt.Fprint(os.Stderr, "\r")
		t.pb = nil
	}
}
