package viewer

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// MaxBody is the largest request body the server reads (1 MiB); larger
// bodies get 413.
const MaxBody = 1 << 20

// TokenHeader carries the per-run token on every /api/ request.
const TokenHeader = "X-Meshrig-Token"

// newToken returns 128 random bits as 32 hex digits.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("viewer token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// allowedHosts lists the Host header values that name the bound address:
// the listen host as given and, for a loopback or unspecified address,
// 127.0.0.1, localhost and [::1] — each with the bound port. An unspecified
// address (0.0.0.0, ::) also admits the machine's own addresses and name,
// the names a client on the network can use. Anything else is a rebinding
// attempt: a hostile name resolved to this machine.
func allowedHosts(listenHost string, port int) map[string]bool {
	p := strconv.Itoa(port)
	hosts := map[string]bool{}
	add := func(h string) {
		h = strings.ToLower(strings.Trim(h, "[]"))
		if h != "" {
			hosts[net.JoinHostPort(h, p)] = true
		}
	}
	add(listenHost)
	ip := net.ParseIP(strings.Trim(listenHost, "[]"))
	if listenHost == "" || strings.EqualFold(listenHost, "localhost") || (ip != nil && (ip.IsLoopback() || ip.IsUnspecified())) {
		add("127.0.0.1")
		add("localhost")
		add("::1")
	}
	if listenHost == "" || (ip != nil && ip.IsUnspecified()) {
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					add(n.IP.String())
				}
			}
		}
		if name, err := os.Hostname(); err == nil {
			add(name)
		}
	}
	return hosts
}

// hostOK reports whether the request's Host header names the bound
// address. A header without a port is refused: browsers always send it for
// a non-default port, and the server never binds 80.
func (s *Server) hostOK(r *http.Request) bool {
	h, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		return false
	}
	return s.hosts[net.JoinHostPort(strings.ToLower(h), port)]
}

// guard wraps every route: Host check first (static files too, so a
// rebound name cannot read even the page), then the token for all but the
// page's files, then the body limit.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		// The token travels in the page's URL: never send it on as a referrer.
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if !s.hostOK(r) {
			fail(w, http.StatusForbidden, "Host %q is not this server's address", r.Host)
			return
		}
		// A browser names the page that sent a request; only this server's
		// own page may call it (the token alone already stops others,
		// this stops them even if a token leaked into another page).
		if o := r.Header.Get("Origin"); o != "" && !s.originOK(o) {
			fail(w, http.StatusForbidden, "Origin %q is not this server's page", o)
			return
		}
		if !pageFile(r.URL.Path) {
			h.Set("Cache-Control", "no-store")
			got := r.Header.Get(TokenHeader)
			if got == "" {
				fail(w, http.StatusForbidden, "missing %s header", TokenHeader)
				return
			}
			if subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
				fail(w, http.StatusForbidden, "wrong %s", TokenHeader)
				return
			}
		}
		if r.ContentLength > MaxBody {
			fail(w, http.StatusRequestEntityTooLarge, "request body of %d bytes is over the %d-byte limit", r.ContentLength, MaxBody)
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// originOK reports whether an Origin header names this server: http://
// and an allowed host.
func (s *Server) originOK(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Path != "" {
		return false
	}
	h, port, err := net.SplitHostPort(u.Host)
	return err == nil && s.hosts[net.JoinHostPort(strings.ToLower(h), port)]
}

// pageFile reports whether path names a file at the top (the page's own
// files, which hold no data and load before the page knows its token):
// "/" or "/NAME". Every other path — /api/ and anything unforeseen —
// needs the token.
func pageFile(path string) bool {
	return path == "/" || (strings.Count(path, "/") == 1 && path != "/api")
}

// apiError is the body of every 4xx and 5xx answer.
type apiError struct {
	Error string `json:"error"`
}

// fail answers with status and a one-line JSON error.
func fail(w http.ResponseWriter, status int, format string, a ...any) {
	msg := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " ")
	writeJSON(w, status, apiError{Error: msg})
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(apiError{Error: "encoding the answer: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// decode reads exactly one JSON object into v, refusing unknown fields and
// trailing data. On failure it has answered (400, or 413 for a body over
// the limit) and returns false.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.Body == nil {
		fail(w, http.StatusBadRequest, "empty request body: want a JSON object")
		return false
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr == nil {
			err = errors.New("data after the JSON object")
		} else if terr != io.EOF {
			err = terr
		}
	}
	if err == nil {
		return true
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		fail(w, http.StatusRequestEntityTooLarge, "request body is over the %d-byte limit", tooBig.Limit)
		return false
	}
	if err == io.EOF {
		fail(w, http.StatusBadRequest, "empty request body: want a JSON object")
		return false
	}
	fail(w, http.StatusBadRequest, "malformed JSON: %v", err)
	return false
}
