// The content locale a request asks for with ?locale=, checked against the config.
import { badRequest, type StrataEvent, useConfig } from "@strata/strata";

export function requestedLocale(event: StrataEvent): string {
  const { locales, defaultLocale } = useConfig().collections;
  const locale = event.query.get("locale") ?? defaultLocale;
  if (!locales.includes(locale)) {
    throw badRequest(
      `Unknown locale "${locale}": use one of ${locales.join(", ")}`,
    );
  }
  return locale;
}
