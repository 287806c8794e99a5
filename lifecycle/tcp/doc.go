// Package tcp serves the connection lifecycle of package lifecycle on TCP:
// a Listener reads each connection's frames with codec.ReadFrame, hands
// them to one lifecycle.Conn per connection and writes the answers, within
// budgets of connections, time and memory (ServeOptions), a failed-login
// throttle per address, and an Observer for logs and metrics. Everything
// that needs the network, system calls, logging or JSON lives here, so
// that package lifecycle stays sans-IO.
package tcp
