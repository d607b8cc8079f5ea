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

func (b logBody) check() error {
	if b.Event == "" || len(b.Event) > 40 {
		return fmt.Errorf(`"event" must be 1 to 40 characters`)
	}
	for _, c := range b.Event {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf(`"event" %q: use lower-case letters, digits and dashes`, b.Event)
		}
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
	s.logf("page: %s %.0f ms (%d ms after start)", b.Event, *b.MS, s.since())
	w.WriteHeader(http.StatusNoContent)
}
