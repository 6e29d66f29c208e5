import { ROUTES } from '../routing';

export function NotFoundPage() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <a href={ROUTES.home}>Go to Home</a>.
      </p>
    </>
  );
}
