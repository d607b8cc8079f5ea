package viewer

import (
	"fmt"
	"math"
	"net/http"
)

// maxLogBody bounds POST /api/log's body: one short event.
const maxLogBody = 1 << 10

// logBody is POST /api/log's JSON: a timing the page measured, such as
// {"event":"first-frame","ms":123}.
type logBody struct {
	Event string   `json:"event"`
	MS    *float64 `json:"ms"`
}

// logEvents are the timings the page reports, with how the server
// prints each: the page's milliseconds, then the time since the command
// started.
var logEvents = map[string]string{
	// ms: performance.now() when the first frame with the mesh was drawn.
	"first-frame": "first frame: drawn %.1f ms after the page's navigation start, %d ms after start",
	// ms: the mean frame time while playing.
	"frame-time": "frame time: %.2f ms while playing (%d ms after start)",
}

func (b logBody) check() error {
	if _, ok := logEvents[b.Event]; !ok {
		return fmt.Errorf(`unknown "event" %.40q (want first-frame or frame-time)`, b.Event)
	}
	if b.MS == nil || !(*b.MS >= 0) || math.IsInf(*b.MS, 0) || *b.MS > 1e9 {
		return fmt.Errorf(`"ms" must be a number of milliseconds, 0 to 1e9`)
	}
	return nil
}

// postLog passes a timing from the page to Options.Logf, with the time
// since the command started for comparison.
func (s *Server) postLog(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxLogBody)
	var b logBody
	if !decode(w, r, &b) {
		return
	}
	if err := b.check(); err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	s.logf(logEvents[b.Event], *b.MS, s.since())
	w.WriteHeader(http.StatusNoContent)
}
