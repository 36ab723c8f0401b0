export { cn } from './lib/cn';
export { Button, buttonVariants, type ButtonProps } from './components/button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
export { navigate, subscribeToLocation, NAVIGATE_EVENT, type NavigateOptions } from './router/history';
export { useLocation, type Location } from './router/use-location';
export { matchPath } from './router/match-path';
export { Link, type LinkProps } from './router/link';
