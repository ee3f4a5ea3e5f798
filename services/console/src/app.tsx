import { useEffect, useState } from "react";
import { readToken, writeToken } from "./api.js";
import { ApprovalsPage } from "./approvals-page.js";
import { ClusterPage } from "./cluster-page.js";
import { DeadLettersPage } from "./dead-letters-page.js";
import { SessionPage } from "./session-page.js";
import { SessionsPage } from "./sessions-page.js";

type Route =
  | { page: "sessions" }
  | { page: "session"; sessionId: string }
  | { page: "approvals" }
  | { page: "cluster" }
  | { page: "dead-letters" };

function routeOf(hash: string): Route {
  const path = hash.replace(/^#/, "");
  const session = /^\/sessions\/([^/]+)$/.exec(path);
  if (session?.[1] !== undefined) {
    return { page: "session", sessionId: decodeURIComponent(session[1]) };
  }
  if (path === "/approvals") return { page: "approvals" };
  if (path === "/cluster") return { page: "cluster" };
  if (path === "/dead-letters") return { page: "dead-letters" };
  return { page: "sessions" };
}

/** The console: a header with the pages and the token field, then the page of the URL's hash. */
export function App() {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(routeOf(location.hash));
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  return (
    <div className="app">
      <header className="top">
        <a className="brand" href="#/">
          Troupe
        </a>
        <nav>
          <a href="#/" className={route.page === "sessions" ? "active" : ""}>
            Sessions
          </a>
          <a href="#/approvals" className={route.page === "approvals" ? "active" : ""}>
            Approvals
          </a>
          <a href="#/cluster" className={route.page === "cluster" ? "active" : ""}>
            Hosts &amp; shards
          </a>
          <a href="#/dead-letters" className={route.page === "dead-letters" ? "active" : ""}>
            Dead letters
          </a>
        </nav>
        <TokenField />
      </header>
      <main>
        {route.page === "sessions" && <SessionsPage />}
        {route.page === "session" && (
          <SessionPage key={route.sessionId} sessionId={route.sessionId} />
        )}
        {route.page === "approvals" && <ApprovalsPage />}
        {route.page === "cluster" && <ClusterPage />}
        {route.page === "dead-letters" && <DeadLettersPage />}
      </main>
    </div>
  );
}

function TokenField() {
  const [token, setToken] = useState(readToken);
  return (
    <label className="token">
      Token
      <input
        type="password"
        placeholder="none"
        value={token}
        onChange={(event) => {
          setToken(event.target.value);
          writeToken(event.target.value.trim());
        }}
      />
    </label>
  );
}
