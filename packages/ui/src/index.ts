export { cn } from './lib/cn';
export { Button, buttonVariants, type ButtonProps } from './components/button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
export { Checkbox, Input, Label, Progress, Textarea } from './components/form';
export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './components/dialog';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './components/tabs';
export { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger, TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './components/tooltip';
export { Toaster } from './components/toaster';
export { copyLink } from './lib/copy-link';
export { CopyLinkButtons, type NamedLink } from './components/copy-link-buttons';
export { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from './components/toast';
export { toast, subscribeToToasts, TOAST_EVENT, type ToastEvent, type ToastOptions, type ToastVariant } from './lib/toast-events';
export { AlertCircleIcon, Icon, ArrowLeftIcon, CheckIcon, CopyIcon, MailIcon, SpinnerIcon, UploadIcon, XIcon } from './components/icons';
export {
  AlertTriangleIcon,
  BarChartIcon,
  CalendarIcon,
  EyeOffIcon,
  FlagIcon,
  ImageOffIcon,
  ListIcon,
  LockIcon,
  TrashIcon,
} from './components/status-icons';
export { Badge, badgeVariants, type BadgeProps } from './components/badge';
export { navigate, subscribeToLocation, NAVIGATE_EVENT, type NavigateOptions } from './router/history';
export { useLocation, type Location } from './router/use-location';
export { matchPath } from './router/match-path';
export { Link, type LinkProps } from './router/link';
export { BackdropToggle, LogoOnBackdrop } from './components/logo-backdrop';
