package method

// Progress reports long work: stage names a phase ("clustering",
// "rigging"), done of total steps in it. It may be nil.
type Progress func(stage string, done, total int)

// Report calls p when it is set.
func (p Progress) Report(stage string, done, total int) {
	if p != nil {
		p(stage, done, total)
	}
}

// Notes collects remarks for the user (a static input, a shell rigged on
// its own); methods never print.
type Notes func(msg string)

// Add calls n when it is set.
func (n Notes) Add(msg string) {
	if n != nil {
		n(msg)
	}
}
