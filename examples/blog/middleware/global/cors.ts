// A front end on the Vite dev server may call the API with cookies.
import { cors } from "@strata/strata";

export default cors({
  origin: ["http://localhost:5173"],
  credentials: true,
  maxAge: 600,
});
